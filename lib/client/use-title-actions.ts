"use client";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { toast } from "sonner";
import { normalizeUserTitle, titleFactOf } from "@/lib/title";
import { actionErrorText } from "./action-error";
import { usesStandardApi } from "./api-flavor";
import { apiErrorCode, apiErrorMessage, apiErrorStatus, loadBrowserClient, requestTitleRegenerate } from "./api-client";
import { recordServerTitle, rereadThreadTitle } from "./live-titles";
import { offerRenameUndo, titleActionMark, withdrawRenameUndo } from "./rename-undo";
import { patchRow } from "./row-patches";
import { computeThreadTitle } from "./use-thread-title";

/** Per thread, the mark of the last rename sent: an answer to an earlier one arriving after it is stale. */
const lastRename = new Map<string, number>();

/** `undo`: an Undo toast was offered for it. */
export type RenameResult = { ok: true; title: string; undo: boolean } | { ok: false; message: string | null };

/**
 * Rename = pin. A title lib/title refuses is refused here with the server's own message and never
 * sent (a request known to fail would only put a 4xx in the console). A valid one shows at once
 * (optimistic); the server stays the authority: its normalised title settles the row, a 422 is
 * shown inline, any other failure rolls back with a toast.
 */
export async function renameThread(qc: QueryClient, threadId: string, raw: string): Promise<RenameResult> {
  const before = computeThreadTitle(qc, threadId);
  const local = normalizeUserTitle(raw);
  if (!local.ok) return { ok: false, message: local.message };
  const at = Date.now();
  patchRow(qc, threadId, (p) => ({ ...p, edit: { title: local.title, at } }));
  const clearOwnEdit = () => patchRow(qc, threadId, (p) => (p.edit?.at === at ? { ...p, edit: undefined } : p));
  const mark = titleActionMark();
  lastRename.set(threadId, mark);
  try {
    const res: unknown = await (await loadBrowserClient()).threads.updateState(threadId, { values: { title: raw } });
    const fact = titleFactOf(res);
    const settled = fact.title ? fact : { title: local.title, source: { kind: "user" as const } };
    // An answer to a rename sent before the latest one of this thread (answers can come back out
    // of order) is dated when it was sent, so it never shows over the later rename, and offers no
    // Undo of its own. The latest is dated on arrival, as any server answer: newer than a list
    // page asked before the server had it.
    const superseded = lastRename.get(threadId) !== mark;
    if (!superseded) lastRename.delete(threadId);
    recordServerTitle(qc, threadId, settled, superseded ? { at } : {});
    clearOwnEdit();
    // No Undo for a title still being worked out (the browser's own instant title). While a run is
    // going the rename is a pending pin, and its Undo waits for the run to end (undoRename).
    const pendingPin = (res as { pending?: unknown } | null)?.pending === true;
    // Undo is a Threadline route (title/restore): not in front of a LangGraph server.
    const undo = !superseded && !before.pending && !usesStandardApi() && offerRenameUndo(qc, threadId, before, settled, mark, { afterRuns: pendingPin });
    return { ok: true, title: settled.title ?? "", undo };
  } catch (err) {
    clearOwnEdit();
    const message = apiErrorMessage(err);
    if (apiErrorStatus(err) === 422 || apiErrorCode(err) === "title-invalid") return { ok: false, message };
    toast.error(actionErrorText("rename", err));
    return { ok: false, message: null };
  }
}

/** "Let AI name this": unpins and takes the fresh automatic title the server wrote. */
export async function regenerateThreadTitle(qc: QueryClient, threadId: string): Promise<boolean> {
  const mark = titleActionMark();
  try {
    const fact = await requestTitleRegenerate(threadId);
    recordServerTitle(qc, threadId, fact);
    withdrawRenameUndo(threadId, mark);
    return true;
  } catch (err) {
    toast.error(actionErrorText("regenerate", err));
    // The thread moved on while the model was asked (a rename or an answer, maybe on another
    // device): the toast says its title stays, so show the title it has now.
    const code = apiErrorCode(err);
    if (code === "title-changed" || code === "thread-changed") void rereadThreadTitle(qc, threadId).catch(() => undefined);
    return false;
  }
}

export function useTitleActions() {
  const qc = useQueryClient();
  const rename = useCallback((threadId: string, raw: string) => renameThread(qc, threadId, raw), [qc]);
  const regenerate = useCallback((threadId: string) => regenerateThreadTitle(qc, threadId), [qc]);
  return { rename, regenerate };
}
