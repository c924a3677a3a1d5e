"use client";
import { useRef } from "react";
import { SendIcon, StopIcon } from "@/components/ui/icons";
import { useDraft } from "@/lib/client/use-draft";

interface ComposerProps {
  streaming: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Focus the box on mount (new conversations only: not to steal focus on navigation). */
  autoFocus?: boolean;
  /** Where the unsent text is kept (the thread id, or "new" on the new-conversation page). */
  draftKey: string;
}

/** Message box: Enter sends, Shift+Enter breaks the line; Stop while an answer streams. */
export function Composer({ streaming, onSend, onStop, autoFocus, draftKey }: ComposerProps) {
  const [text, setText] = useDraft(draftKey);
  const ref = useRef<HTMLTextAreaElement>(null);
  const send = () => {
    if (!text.trim() || streaming) return;
    onSend(text);
    setText("");
    ref.current?.focus();
  };
  return (
    <form
      className="mx-auto w-full max-w-3xl px-4 pb-4"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <div className="flex items-end gap-2 rounded-2xl border border-neutral-300 bg-white p-2 shadow-sm focus-within:border-blue-500 dark:border-neutral-700 dark:bg-neutral-900">
        <textarea
          ref={ref}
          data-testid="composer-input"
          aria-label="Message"
          placeholder="Send a message"
          rows={1}
          value={text}
          autoFocus={autoFocus}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
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
            className="grid size-9 place-items-center rounded-full bg-neutral-900 text-white hover:bg-neutral-700 dark:bg-neutral-100 dark:text-neutral-900"
          >
            <StopIcon />
          </button>
        ) : (
          <button
            type="submit"
            data-testid="send-button"
            aria-label="Send message"
            disabled={!text.trim()}
            className="grid size-9 place-items-center rounded-full bg-neutral-900 text-white hover:bg-neutral-700 disabled:opacity-30 dark:bg-neutral-100 dark:text-neutral-900"
          >
            <SendIcon />
          </button>
        )}
      </div>
      <p className="mt-1.5 text-center text-xs text-neutral-500">Enter to send · Shift+Enter for a new line</p>
    </form>
  );
}
