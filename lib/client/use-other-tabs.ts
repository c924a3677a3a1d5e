"use client";
import { useEffect, useRef, useState } from "react";
import { onTabMessage } from "./cross-tab";

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
export function useOtherTabs({ threadId, busy, join }: OtherTabsOptions): { deletedElsewhere: boolean } {
  const [deletedElsewhere, setDeletedElsewhere] = useState(false);
  const latest = useRef({ busy, join });
  useEffect(() => {
    latest.current = { busy, join };
  }, [busy, join]);
  useEffect(() => {
    if (!threadId) return;
    return onTabMessage((m) => {
      if (!("threadId" in m) || m.threadId !== threadId) return;
      if (m.type === "deleted") setDeletedElsewhere(true);
      else if (m.type === "activity" && m.busy && m.runId && !latest.current.busy) latest.current.join(m.runId);
    });
  }, [threadId]);
  return { deletedElsewhere };
}
