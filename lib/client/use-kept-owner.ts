"use client";
import { useEffect } from "react";
import { clearDraftFiles } from "./draft-files";
import { claimForPage, OWNER_KEY, ownsKept } from "./storage-owner";

/**
 * The shell calls this with the signed-in person's id (null in local mode). It claims what the
 * browser keeps while the shell renders, before any child's effect reads a draft (the files' clear
 * is queued ahead of their reads: one IndexedDB store, transactions in order); claiming again for
 * the same person does nothing. When another tab then signs out or signs someone else in, this
 * page reloads (the server sends it to sign-in, or shows the other person their own list) rather
 * than go on showing, and keeping, the first person's; so does a page the browser brings back
 * from its back/forward cache after that happened.
 */
export function useKeptOwner(owner: string | null): void {
  if (owner !== null && typeof window !== "undefined" && claimForPage(owner)) void clearDraftFiles();
  useEffect(() => {
    if (owner === null) return;
    const onStorage = (e: StorageEvent) => {
      if ((e.key === OWNER_KEY || e.key === null) && !ownsKept()) window.location.reload();
    };
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted && !ownsKept()) window.location.reload();
    };
    window.addEventListener("storage", onStorage);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener("pageshow", onPageShow);
    };
  }, [owner]);
}
