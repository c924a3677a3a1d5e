"use client";
import type { QueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { sameTitleFact, type TitleFact } from "@/lib/title";
import { apiErrorMessage } from "./api-client";
import { recordServerTitle } from "./live-titles";
import { requestTitleRestore } from "./title-restore";

const UNDO_MS = 8000;
const undoToastId = (threadId: string) => `rename:${threadId}`;

// Each toast's place in the order of offers, so a regenerate withdraws only toasts offered before it was asked.
let offers = 0;
const offeredAs = new Map<string, number>();

/** A mark taken when a regenerate is asked for, to pass to withdrawRenameUndo. */
export const renameUndoMark = () => offers;

/**
 * A title the rename's Undo would no longer find (a regenerate asked for after `mark` replaced it):
 * its toast goes too. A rename offered later was answered after the regenerate was asked, so its
 * toast stays (a rename written after the regenerate's title is newer than it).
 */
export function withdrawRenameUndo(threadId: string, mark: number) {
  const offer = offeredAs.get(threadId);
  if (offer === undefined || offer > mark) return;
  offeredAs.delete(threadId);
  toast.dismiss(undoToastId(threadId));
}

/**
 * Undo puts back the previous title WITH its source (a plain rename would pin it as the user's):
 * undoing a rename of an AI title unpins the conversation again. The server checks the pair is
 * from the thread's history and that the renamed title is still current (409 otherwise).
 */
export async function undoRename(qc: QueryClient, threadId: string, previous: TitleFact, renamed: TitleFact): Promise<boolean> {
  if (!previous.title || !previous.source) return false;
  try {
    const fact = await requestTitleRestore(threadId, { title: previous.title, source: previous.source }, renamed);
    recordServerTitle(qc, threadId, fact);
    return true;
  } catch (err) {
    toast.error(`Couldn't undo the rename: ${apiErrorMessage(err)}`);
    return false;
  }
}

/** The rename toast. Offered only when there is a confirmed earlier title to go back to. */
export function offerRenameUndo(qc: QueryClient, threadId: string, previous: TitleFact, renamed: TitleFact) {
  if (!previous.title || !previous.source || sameTitleFact(previous, renamed)) return;
  const offer = ++offers;
  offeredAs.set(threadId, offer);
  const gone = () => {
    if (offeredAs.get(threadId) === offer) offeredAs.delete(threadId);
  };
  toast(`Renamed to “${renamed.title}”`, {
    id: undoToastId(threadId),
    duration: UNDO_MS,
    action: { label: "Undo", onClick: () => void undoRename(qc, threadId, previous, renamed) },
    onDismiss: gone,
    onAutoClose: gone,
  });
}
