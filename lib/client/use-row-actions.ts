"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { toast } from "sonner";
import { actionErrorText } from "./action-error";
import { loadBrowserClient } from "./api-client";
import { broadcast } from "./cross-tab";
import { holdDelete, releaseDelete } from "./pending-deletes";
import { toastTitle } from "./rename-undo";
import { browserStorage, forgetConversationDrafts } from "./use-draft";
import { patchRow } from "./row-patches";

export const UNDO_MS = 5_000;

interface RowActionOptions {
  /** Leaves the conversation when it is the open one; returns how to come back, for Undo. */
  onDeletedOpenThread?: (threadId: string) => (() => void) | null;
}

/** Star/unstar and delete-with-undo for one row; both optimistic. */
export function useRowActions(opts: RowActionOptions = {}) {
  const qc = useQueryClient();
  const { onDeletedOpenThread } = opts;

  const setStarred = useCallback(
    async (threadId: string, starred: boolean) => {
      patchRow(qc, threadId, (p) => ({ ...p, starred }));
      try {
        await (await loadBrowserClient()).threads.update(threadId, { metadata: { starred } });
        broadcast({ type: "starred", threadId, starred });
      } catch (err) {
        patchRow(qc, threadId, (p) => ({ ...p, starred: !starred }));
        toast.error(actionErrorText(starred ? "star" : "unstar", err));
      }
    },
    [qc],
  );

  /**
   * Hides the row at once and shows an Undo toast; the DELETE is sent only when the toast
   * expires or is dismissed (Undo simply shows the row again: nothing to restore server-side,
   * and reopens the conversation if deleting it had left it).
   */
  const deleteWithUndo = useCallback(
    (threadId: string, title: string) => {
      patchRow(qc, threadId, (p) => ({ ...p, deleted: true }));
      const comeBack = onDeletedOpenThread?.(threadId) ?? null;
      const undo = () => {
        if (!releaseDelete(threadId)) return;
        patchRow(qc, threadId, (p) => ({ ...p, deleted: false }));
        // Called off without the toast too (cancelHeldDelete): its "Deleted" would no longer be true.
        toast.dismiss(`delete:${threadId}`);
        comeBack?.();
      };
      const remove = async (): Promise<void> => {
        try {
          await (await loadBrowserClient()).threads.delete(threadId);
          broadcast({ type: "deleted", threadId });
          void forgetConversationDrafts(browserStorage(), threadId);
        } catch (err) {
          patchRow(qc, threadId, (p) => ({ ...p, deleted: false }));
          toast.error(actionErrorText("delete", err), {
            id: `delete-failed:${threadId}`,
            duration: Infinity,
            action: {
              label: "Retry",
              onClick: () => {
                patchRow(qc, threadId, (p) => ({ ...p, deleted: true }));
                void remove();
              },
            },
          });
        }
      };
      const commit = async () => {
        if (releaseDelete(threadId)) await remove();
      };
      holdDelete(threadId, undo);
      toast(`Deleted “${toastTitle(title)}”`, {
        id: `delete:${threadId}`,
        duration: UNDO_MS,
        action: { label: "Undo", onClick: undo },
        onAutoClose: () => void commit(),
        onDismiss: () => void commit(),
      });
    },
    [qc, onDeletedOpenThread],
  );

  return { setStarred, deleteWithUndo };
}
