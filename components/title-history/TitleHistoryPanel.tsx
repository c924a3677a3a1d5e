"use client";
import * as Dialog from "@radix-ui/react-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { useMemo, useState, type RefObject } from "react";
import { errorTextForPeople, isRequestFailure } from "@/lib/client/error-text";
import { describeTitleSource } from "@/lib/client/title-source-label";
import { withShownTitle, type TitleRevision } from "@/lib/client/title-revisions";
import { renameThread } from "@/lib/client/use-title-actions";
import { useThreadTitle } from "@/lib/client/use-thread-title";
import { useTitleHistory } from "@/lib/client/use-title-history";
import { CloseIcon } from "@/components/ui/icons";

interface TitleHistoryPanelProps {
  threadId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * Where focus goes when the panel closes. Needed when the opener is not a Dialog.Trigger (a row
   * menu item, gone by then); without it Radix returns focus to its own trigger.
   */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function RevisionTime({ at }: { at: string | null }) {
  const date = at ? new Date(at) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  return <time dateTime={date.toISOString()}>{timeFormat.format(date)}</time>;
}

/** The conversation's title revisions (newest first); choosing one makes it the user's title again. */
export function TitleHistoryPanel({ threadId, open, onOpenChange, returnFocusTo }: TitleHistoryPanelProps) {
  const qc = useQueryClient();
  const shown = useThreadTitle(threadId);
  const history = useTitleHistory(threadId, open, shown.busy);
  // A rename made while a run goes is written into the checkpoints only when it ends: until the
  // history read after that arrives, the title the sidebar and header show is the current one.
  // Only then: a row that lags a fresh history must not pass an older title off as current.
  const waitingRename = !shown.pending && shown.source?.kind === "user" && (shown.busy || history.isPlaceholderData);
  const revisions = useMemo(
    () => (history.data ? withShownTitle(history.data.revisions, waitingRename ? shown : null) : []),
    [history.data, shown, waitingRename],
  );
  const [restoring, setRestoring] = useState(false);

  async function choose(revision: TitleRevision) {
    setRestoring(true);
    // A rename: the chosen title becomes the user's own, pinned (the rename toast offers Undo).
    const result = await renameThread(qc, threadId, revision.title);
    setRestoring(false);
    if (result.ok) onOpenChange(false);
  }

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/30" />
        <Dialog.Content
          data-testid="title-history"
          onCloseAutoFocus={(e) => {
            const target = returnFocusTo?.current;
            if (target?.isConnected) {
              e.preventDefault();
              target.focus();
            }
          }}
          className="fixed left-1/2 top-1/2 z-50 flex max-h-[80vh] w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg border border-neutral-200 bg-white shadow-xl dark:border-neutral-700 dark:bg-neutral-900"
        >
          <div className="flex items-start gap-2 border-b border-neutral-200 p-4 dark:border-neutral-700">
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-base font-semibold">Title history</Dialog.Title>
              <Dialog.Description className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">
                Choose an earlier title to use it again; it becomes your own title.
              </Dialog.Description>
            </div>
            <Dialog.Close
              aria-label="Close"
              data-testid="title-history-close"
              className="grid size-11 shrink-0 place-items-center rounded-md md:size-8 hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-blue-500 dark:hover:bg-neutral-800"
            >
              <CloseIcon />
            </Dialog.Close>
          </div>
          <div className="min-h-0 overflow-y-auto p-2" aria-busy={history.isPending || restoring}>
            {history.isPending ? (
              <p className="p-2 text-sm text-neutral-500" role="status">
                Loading…
              </p>
            ) : history.isError ? (
              <p className="p-2 text-sm text-red-600" role="alert">
                Couldn&apos;t load the title history. {isRequestFailure(history.error) ? errorTextForPeople(history.error) : "Try again in a moment."}
              </p>
            ) : revisions.length === 0 ? (
              <p className="p-2 text-sm text-neutral-500">This conversation has no title yet.</p>
            ) : (
              <ol data-testid="title-revisions" className="flex flex-col gap-1">
                {revisions.map((revision, i) => (
                  <RevisionItem
                    key={`${revision.checkpointId ?? i}`}
                    revision={revision}
                    current={i === 0}
                    disabled={restoring}
                    onChoose={() => void choose(revision)}
                  />
                ))}
              </ol>
            )}
            {history.data?.truncated ? <p className="p-2 text-xs text-neutral-500">Older titles are not shown.</p> : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function RevisionItem({ revision, current, disabled, onChoose }: { revision: TitleRevision; current: boolean; disabled: boolean; onChoose: () => void }) {
  const source = describeTitleSource(revision.source);
  // The current title is already the user's when it was a rename: nothing to restore.
  const restorable = !(current && revision.source?.kind === "user");
  return (
    <li data-testid="title-revision" data-title-source={revision.source?.kind ?? "none"} data-current={current ? "true" : undefined}>
      <button
        type="button"
        data-testid="title-revision-button"
        disabled={disabled || !restorable}
        onClick={onChoose}
        aria-label={`${current ? "Current title" : "Use title"} “${revision.title}”, ${source}`}
        className="flex w-full flex-col items-start gap-0.5 rounded-md px-3 py-2 text-left hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-blue-500 disabled:cursor-default disabled:hover:bg-transparent dark:hover:bg-neutral-800"
      >
        <span className="flex w-full items-center gap-2">
          <bdi data-testid="title-revision-title" className="min-w-0 flex-1 truncate text-sm font-medium">
            {revision.title}
          </bdi>
          {current ? <span className="shrink-0 rounded bg-neutral-200 px-1.5 text-xs dark:bg-neutral-700">Current</span> : null}
        </span>
        <span className="text-xs text-neutral-600 dark:text-neutral-400">
          <span data-testid="title-revision-source">{source}</span>
          {revision.at ? " · " : null}
          <RevisionTime at={revision.at} />
        </span>
      </button>
    </li>
  );
}
