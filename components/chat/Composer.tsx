"use client";
import { useEffect, useEffectEvent, useLayoutEffect, useRef, useState, type RefObject } from "react";
import type { ComposerAttachment } from "@/lib/client/attachments";
import { joinUnsentAndDraft } from "@/lib/client/unsent";
import { useComposerAttachments } from "@/lib/client/use-composer-attachments";
import { useDraft } from "@/lib/client/use-draft";
import { useHydrated } from "@/lib/client/use-hydrated";
import { SendIcon, StopIcon } from "@/components/ui/icons";
import { AttachButton, ComposerAttachmentChips, droppedFiles } from "./AttachmentChips";
import { isComposingKey } from "@/lib/client/composing";
import { focusInConversationList } from "@/lib/client/focus-fell";

interface ComposerProps {
  streaming: boolean;
  /** Returns what to leave in the box (a failed earlier send), if anything. */
  onSend: (text: string, attachments: ComposerAttachment[]) => PutBack | undefined;
  onStop: () => void;
  /**
   * Focus the box on mount (new conversations only: not to steal focus on navigation), unless the
   * focus is in the conversation list: deleting the open conversation brings the user here and
   * gives the focus to the next row, where it stays.
   */
  autoFocus?: boolean;
  /** Where the unsent text is kept (the thread id, or "new" on the new-conversation page). */
  draftKey: string;
  /** Ids of the messages the server has (the thread's, and its unfinished runs' input): a send found unsent after a reload but among them arrived. */
  delivered?: ReadonlySet<string>;
  /** A send to put back in front of whatever the box holds (it was stopped before it started); once per id. */
  putBack?: SentMessage | null;
}

/**
 * The composer's height as `--composer-height` on the page's root, while it is on the page: toasts
 * are placed above it at every width (components/providers.tsx), never over the box being typed in.
 */
function useComposerHeight(formRef: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => root.setProperty("--composer-height", `${form.offsetHeight}px`));
    observer.observe(form);
    return () => {
      observer.disconnect();
      root.removeProperty("--composer-height");
    };
  }, [formRef]);
}

/** A message as the user sent it: its id, its text and its files. */
export type SentMessage = { id: string; text: string; attachments: readonly ComposerAttachment[] };
/** Text and files to put back into the box. */
export type PutBack = Omit<SentMessage, "id">;

/** Message box: Enter sends, Shift+Enter breaks the line; Stop while an answer streams. Takes files too. */
export function Composer({ streaming, onSend, onStop, autoFocus, draftKey, delivered, putBack }: ComposerProps) {
  const [text, setText, draftRestored, takenSend, askingOtherTab] = useDraft(draftKey, delivered);
  // False in the server's HTML and while hydrating, true from then on (a new draft key later keeps it).
  const live = useHydrated();
  const files = useComposerAttachments(draftKey, draftRestored, takenSend);
  const putBackDone = useRef<string | null>(null);
  const { restore } = files;
  useEffect(() => {
    if (!putBack || putBackDone.current === putBack.id) return;
    putBackDone.current = putBack.id;
    setText(joinUnsentAndDraft(putBack.text, text));
    restore(putBack.attachments);
  }, [putBack, text, setText, restore]);
  const [dragging, setDragging] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  // In the commit, as `autoFocus` would. The page's content can hydrate after the sidebar: a row's
  // menu opened meanwhile holds the focus (focusInConversationList counts the menu, portalled out
  // of the list), and taking it would close that menu under the user's pointer.
  useLayoutEffect(() => {
    if (autoFocus && !focusInConversationList()) ref.current?.focus();
    // Mount only: `autoFocus` is fixed for a composer's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const formRef = useRef<HTMLFormElement>(null);
  useComposerHeight(formRef);
  const canSend = (text.trim() !== "" || files.attachments.length > 0) && !files.reading && files.overLimit === null;
  // Enter while files are still being read (just dropped, or the kept ones after a load) sends
  // once they are in, with them, instead of being dropped.
  const sendWhenRead = useRef(false);
  const send = () => {
    if (streaming) return;
    if (files.reading) return void (sendWhenRead.current = true);
    if (!canSend) return;
    const keep = onSend(text, files.attachments);
    setText(keep?.text ?? "");
    files.clear();
    if (keep?.attachments.length) files.restore(keep.attachments);
    ref.current?.focus();
  };
  const sendQueued = useEffectEvent(() => send());
  useEffect(() => {
    if (!sendWhenRead.current || files.reading) return;
    sendWhenRead.current = false;
    sendQueued();
  }, [files.reading]);
  return (
    <form
      ref={formRef}
      className="mx-auto w-full max-w-3xl px-4 pb-4"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes("Files")) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        files.add(droppedFiles(e.dataTransfer));
      }}
    >
      <div
        data-dragging={dragging ? "true" : undefined}
        className="rounded-2xl border border-neutral-300 bg-white p-2 shadow-sm focus-within:border-blue-500 data-[dragging]:border-dashed data-[dragging]:border-blue-500 dark:border-neutral-700 dark:bg-neutral-900"
      >
        <ComposerAttachmentChips attachments={files.attachments} onRemove={files.remove} />
        <div className="flex items-end gap-2">
          <AttachButton onFiles={files.add} />
          <textarea
            ref={ref}
            data-testid="composer-input"
            data-draft-restored={(draftRestored && files.loaded) || undefined}
            aria-label="Message"
            placeholder="Send a message"
            rows={1}
            value={text}
            // Read-only until the page is live (the server renders it so): a keystroke before then
            // would be written over when the page takes the box over.
            readOnly={askingOtherTab || !live}
            onChange={(e) => setText(e.target.value)}
            onPaste={(e) => {
              const pasted = droppedFiles(e.clipboardData);
              if (pasted.length === 0) return; // plain text paste: the browser's own
              e.preventDefault();
              files.add(pasted);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey && !isComposingKey(e.nativeEvent)) {
                e.preventDefault();
                send();
              }
            }}
            className="max-h-48 min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 outline-none [field-sizing:content]"
          />
          {streaming ? (
            <button
              type="button"
              data-testid="stop-button"
              onClick={onStop}
              aria-label="Stop generating"
              className="grid size-11 place-items-center rounded-full md:size-9 bg-neutral-900 text-white hover:bg-neutral-700 dark:bg-neutral-100 dark:text-neutral-900"
            >
              <StopIcon />
            </button>
          ) : (
            <button
              type="submit"
              data-testid="send-button"
              aria-label="Send message"
              disabled={!canSend}
              className="grid size-11 place-items-center rounded-full md:size-9 bg-neutral-900 text-white hover:bg-neutral-700 disabled:opacity-30 dark:bg-neutral-100 dark:text-neutral-900"
            >
              <SendIcon />
            </button>
          )}
        </div>
      </div>
      {files.refusal || files.overLimit ? (
        // Two alerts, so a new refusal is announced alone and the standing over-limit line is not read again.
        <p data-testid="attachment-error" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
          {files.refusal ? (
            <span role="alert" data-testid="attachment-refusal">
              {files.refusal}
            </span>
          ) : null}
          {files.refusal && files.overLimit ? " " : null}
          {files.overLimit ? (
            <span role="alert" data-testid="attachment-over-limit">
              {files.overLimit}
            </span>
          ) : null}
        </p>
      ) : null}
      <p className="mt-1.5 text-center text-xs text-neutral-500 dark:text-neutral-400">Enter to send · Shift+Enter for a new line · drop or paste files to attach</p>
    </form>
  );
}
