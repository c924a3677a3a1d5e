"use client";
import type { QueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { sameTitleFact, titleFactOf, type TitleFact } from "@/lib/title";
import { graphemesOf } from "@/lib/title/graphemes";
import { ApiHttpError, apiErrorCode, apiErrorStatus, loadBrowserClient } from "./api-client";
import { errorTextForPeople, isRequestFailure } from "./error-text";
import { recordServerTitle } from "./live-titles";
import { requestTitleRestore } from "./title-restore";
import { isUnfinishedRun } from "./unsent";

const UNDO_MS = 8000;
const undoToastId = (threadId: string) => `rename:${threadId}`;

// Renames and regenerates in the order this tab sent them: the server answers them in any order.
let sent = 0;
/** The toast shown per thread, by the mark of the rename it undoes. */
const shownFor = new Map<string, number>();

/** Taken when a rename or a regenerate is sent: for offerRenameUndo and withdrawRenameUndo. */
export const titleActionMark = () => ++sent;

/**
 * A title the rename's Undo would no longer find (the regenerate sent at `mark` replaced it): its
 * toast goes too, if that rename was sent before the regenerate. One sent after it is taken to
 * be newer than the regenerate's title, so its toast stays.
 */
export function withdrawRenameUndo(threadId: string, mark: number) {
  const rename = shownFor.get(threadId);
  if (rename === undefined || rename > mark) return;
  shownFor.delete(threadId);
  toast.dismiss(undoToastId(threadId));
}

/**
 * Waits until the thread has no run pending or running: each one found is joined, and the list is
 * read again after them (a queued run starts as the one before it ends), a bounded number of times.
 */
async function waitForThreadRuns(threadId: string): Promise<void> {
  const client = await loadBrowserClient();
  for (let round = 0; round < 10; round++) {
    const going = (await client.runs.list(threadId, { limit: 50 })).filter(isUnfinishedRun);
    if (going.length === 0) return;
    // A run gone meanwhile (rolled back, deleted) has ended too.
    for (const r of going) await client.runs.join(threadId, r.run_id).catch(() => undefined);
  }
}

/**
 * A user title goes back as a rename (it is pinned either way), once the title is still the one the
 * rename set: one made during a run never reached a checkpoint (only a run's last rename is written
 * in), so a restore, which takes only titles from the history, would refuse it; and a rename is
 * accepted while a run goes.
 */
async function renameBack(threadId: string, previous: string, renamed: TitleFact): Promise<TitleFact> {
  const client = await loadBrowserClient();
  if (!sameTitleFact(titleFactOf((await client.threads.get(threadId)).values), renamed)) {
    throw new ApiHttpError(409, `HTTP 409: ${JSON.stringify({ detail: "title-changed: the title changed since; nothing was restored" })}`);
  }
  return titleFactOf(await client.threads.updateState(threadId, { values: { title: previous } }));
}

/**
 * Undo puts back the previous title WITH its source (a plain rename would pin it as the user's):
 * undoing a rename of an AI title unpins the conversation again. The server checks the pair is
 * from the thread's history and that the renamed title is still current (409 otherwise).
 * The server refuses a restore while a run goes: an Undo of a rename made during one (`afterRuns`:
 * a pin the run writes in when it ends), or pressed while one goes (a message sent since the
 * rename), says so and waits for the thread's runs to finish first.
 */
export async function undoRename(qc: QueryClient, threadId: string, previous: TitleFact, renamed: TitleFact, { afterRuns = false } = {}): Promise<boolean> {
  if (!previous.title || !previous.source) return false;
  const waiting = `undo-waits:${threadId}`;
  let waited = false;
  const waitForRuns = async () => {
    waited = true;
    toast(`The title goes back to “${toastTitle(previous.title!)}” when the answer is finished.`, { id: waiting, duration: Infinity });
    await waitForThreadRuns(threadId);
  };
  try {
    if (previous.source.kind === "user") {
      recordServerTitle(qc, threadId, await renameBack(threadId, previous.title, renamed));
      return true;
    }
    if (afterRuns) await waitForRuns();
    for (let attempt = 1; ; attempt++) {
      try {
        const fact = await requestTitleRestore(threadId, { title: previous.title, source: previous.source }, renamed);
        recordServerTitle(qc, threadId, fact);
        return true;
      } catch (err) {
        // A run started since the rename (a message sent meanwhile), or one still settling: the
        // restore waits for it too, a little longer each time.
        const busy = apiErrorStatus(err) === 409 && apiErrorCode(err) !== "title-changed";
        if (!busy || attempt >= 4) throw err;
        await waitForRuns();
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  } catch (err) {
    // In our words, not the server's: the usual reason is a rename since, here or elsewhere.
    toast.error(
      apiErrorCode(err) === "title-changed"
        ? "Couldn't undo the rename: the title was changed again since, so nothing was restored."
        : `Couldn't undo the rename. ${isRequestFailure(err) ? errorTextForPeople(err) : "Try again in a moment."}`,
    );
    return false;
  } finally {
    if (waited) toast.dismiss(waiting);
  }
}

/** A title as a toast quotes it: whole up to 60 characters, else its first 57 and "…" (a toast is not the place for 200). */
export function toastTitle(title: string): string {
  const g = graphemesOf(title);
  return g.length <= 60 ? title : `${g.slice(0, 57).join("").trimEnd()}…`;
}

/**
 * The rename toast. Offered only when there is a confirmed earlier title to go back to; `afterRuns`
 * for a rename made while a run was going (see undoRename).
 */
export function offerRenameUndo(qc: QueryClient, threadId: string, previous: TitleFact, renamed: TitleFact, mark = titleActionMark(), { afterRuns = false } = {}): boolean {
  if (!previous.title || !previous.source || sameTitleFact(previous, renamed)) return false;
  shownFor.set(threadId, mark);
  const gone = () => {
    if (shownFor.get(threadId) === mark) shownFor.delete(threadId);
  };
  toast(`Renamed to “${toastTitle(renamed.title ?? "")}”`, {
    id: undoToastId(threadId),
    duration: UNDO_MS,
    action: { label: "Undo", onClick: () => void undoRename(qc, threadId, previous, renamed, { afterRuns }) },
    onDismiss: gone,
    onAutoClose: gone,
  });
  return true;
}
