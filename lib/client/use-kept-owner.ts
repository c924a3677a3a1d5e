"use client";
import { useEffect, useState } from "react";
import { clearDraftFiles } from "./draft-files";
import { claimForPage, OWNER_KEY, ownsKept } from "./storage-owner";

/**
 * The shell calls this with the signed-in person's id (null in local mode). It claims what the
 * browser keeps during the shell's first render, before any child's effect reads a draft (the
 * files' clear is queued ahead of their reads: one IndexedDB store, transactions in order). When
 * another tab then signs out or signs someone else in, this page reloads (the server sends it to
 * sign-in, or shows the other person their own list) rather than go on showing, and keeping, the
 * first person's.
 */
export function useKeptOwner(owner: string | null): void {
  useState(() => {
    if (owner !== null && typeof window !== "undefined" && claimForPage(owner)) void clearDraftFiles();
    return null;
  });
  useEffect(() => {
    if (owner === null) return;
    const onStorage = (e: StorageEvent) => {
      if ((e.key === OWNER_KEY || e.key === null) && !ownsKept()) window.location.reload();
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, [owner]);
}
