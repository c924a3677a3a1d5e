"use client";
import { useEffect, useRef, useState } from "react";
import { onTabMessage } from "./cross-tab";
import { deletedOnLeaving } from "./pending-deletes";

interface OtherTabsOptions {
  threadId: string | null;
  /** This view is streaming already (its own run, or one it joined). */
  busy: boolean;
  /** Follows a run on this view's stream, replayed from its start. */
  join: (runId: string) => void;
}

/**
 * Keeps an open conversation in step with other tabs of the same browser: a run another tab
 * starts on it is joined here (so the message and the answer appear without a reload), and a
 * delete made elsewhere is reported instead of silently leaving the page.
 */
/** How the open conversation was deleted, if it was: in another tab, or as this tab left it. */
export type DeletedHow = "elsewhere" | "on-leaving" | null;

export function useOtherTabs({ threadId, busy, join }: OtherTabsOptions): { deleted: DeletedHow } {
  const [deleted, setDeleted] = useState<DeletedHow>(null);
  const latest = useRef({ busy, join });
  useEffect(() => {
    latest.current = { busy, join };
  }, [busy, join]);
  useEffect(() => {
    if (!threadId) return;
    // Deleted as this tab left it, within its Undo window (a Back across a page load): gone.
    const check = () => deletedOnLeaving().includes(threadId) && queueMicrotask(() => setDeleted("on-leaving"));
    check();
    // Or brought back from the back/forward cache, not made again.
    const restored = (e: PageTransitionEvent) => e.persisted && check();
    window.addEventListener("pageshow", restored);
    const off = onTabMessage((m) => {
      if (!("threadId" in m) || m.threadId !== threadId) return;
      if (m.type === "deleted") setDeleted("elsewhere");
      else if (m.type === "activity" && m.busy && m.runId && !latest.current.busy) latest.current.join(m.runId);
    });
    return () => {
      off();
      window.removeEventListener("pageshow", restored);
    };
  }, [threadId]);
  return { deleted };
}
