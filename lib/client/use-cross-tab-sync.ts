"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { onTabMessage, type TabMessage } from "./cross-tab";
import { applyTabMessage } from "./live-titles";
import { deletedOnLeaving } from "./pending-deletes";
import { patchRow } from "./row-patches";

/** Applies renames, new titles, stars, new threads and deletes made in other tabs. */
export function useCrossTabSync(onMessage?: (m: TabMessage) => void): void {
  const qc = useQueryClient();
  useEffect(
    () =>
      onTabMessage((m) => {
        applyTabMessage(qc, m);
        onMessage?.(m);
      }),
    [qc, onMessage],
  );
}

/**
 * Hides the rows of conversations this tab deleted as it left its previous page (a reload or a
 * Back within their Undo window): this page may have been made before the server had them gone.
 */
export function useDeletedOnLeaving(): void {
  const qc = useQueryClient();
  useEffect(() => {
    // Read once at mount and again on each restore from the back/forward cache (the page was not made again).
    const gone = new Set<string>();
    const hide = () => {
      for (const id of deletedOnLeaving()) {
        gone.add(id);
        patchRow(qc, id, (p) => ({ ...p, deleted: true }));
      }
    };
    hide();
    const restored = (e: PageTransitionEvent) => e.persisted && hide();
    // Back to such a conversation: useStream reads its state on mount and leaves the 404 unhandled.
    // The page says it was deleted (DeletedNotice); that read's failure is expected, not an error.
    const expected = (e: PromiseRejectionEvent) => {
      if (!gone.size) return;
      const message = e.reason instanceof Error ? e.reason.message : String(e.reason);
      if (/\b404\b/.test(message) && [...gone].some((id) => message.includes(id))) e.preventDefault();
    };
    window.addEventListener("pageshow", restored);
    window.addEventListener("unhandledrejection", expected);
    return () => {
      window.removeEventListener("pageshow", restored);
      window.removeEventListener("unhandledrejection", expected);
    };
  }, [qc]);
}
