"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { toast } from "sonner";
import { actionErrorText } from "./action-error";
import { loadBrowserClient } from "./api-client";
import { broadcast } from "./cross-tab";
import { holdDelete, releaseDelete } from "./pending-deletes";
import { browserStorage, forgetConversationDrafts } from "./use-draft";
import { patchRow } from "./row-patches";

export const UNDO_MS = 5_000;

/** Star/unstar and delete-with-undo for one row; both optimistic. */
export function useRowActions(opts: { onDeletedOpenThread?: (threadId: string) => void } = {}) {
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
   * expires or is dismissed (Undo simply shows the row again: nothing to restore server-side).
   */
  const deleteWithUndo = useCallback(
    (threadId: string, title: string) => {
      patchRow(qc, threadId, (p) => ({ ...p, deleted: true }));
      onDeletedOpenThread?.(threadId);
      const undo = () => {
        if (!releaseDelete(threadId)) return;
        patchRow(qc, threadId, (p) => ({ ...p, deleted: false }));
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
      toast(`Deleted “${title}”`, {
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
