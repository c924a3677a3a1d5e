"use client";
import clsx from "clsx";
import { useId, useLayoutEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { normalizeUserTitle } from "@/lib/title";
import { focusFellToPage } from "@/lib/client/focus-fell";
import type { RenameResult } from "@/lib/client/use-title-actions";
import { isComposingKey } from "@/lib/client/composing";

/**
 * How the editor closed: by a key (Enter/Escape: focus goes back to the title), by leaving it for
 * another element ("away": focus stays there), or by leaving it for nowhere (a click on the page:
 * "blur"). The blur comes before the focus lands, so only the event can tell the last two apart.
 */
export type EditorExit = "key" | "blur" | "away";

/** What an open editor held when it was removed, to go on from in its next mount. */
export interface KeptEdit {
  value: string;
  /** The title the editor opened on: a value left as it was saves nothing. */
  initial: string;
  start: number | null;
  end: number | null;
}

interface TitleEditorProps {
  initial: string;
  /** Sends the rename; resolves with the server's verdict. */
  rename: (raw: string) => Promise<RenameResult>;
  onClose: (exit: EditorExit) => void;
  /**
   * An editor removed while open (its row remounted: the sidebar turned virtual or plain) gives
   * `keep` what it held; the next one for the same title takes it from `resume`. Without them the
   * typing would be lost, or saved half-done by the blur the removal fires.
   */
  keep?: (edit: KeptEdit) => void;
  resume?: () => KeptEdit | null;
  className?: string;
}

/**
 * An edit whose whole list went away (the phone's drawer closed) ends as leaving the field ends:
 * a changed title is saved, and a refused one is told in a toast, as no editor is left to show it.
 */
export async function settleLeftEdit(edit: KeptEdit, rename: (raw: string) => Promise<RenameResult>) {
  if (edit.value === edit.initial) return;
  const result = await rename(edit.value);
  if (!result.ok && result.message) toast.error(result.message);
}

/**
 * In-place title input. Enter or blur saves, Esc cancels. A title lib/title accepts is saved
 * optimistically (the editor closes at once); one it refuses gets lib/title's message (the same
 * the server would send; renameThread does not send it) under the field while nothing changes.
 * The field is never disabled while it waits: a disabled field drops the focus to the page, and
 * then nothing answers Esc.
 */
export function TitleEditor({ initial, rename, onClose, keep, resume, className }: TitleEditorProps) {
  const [resumed] = useState(() => resume?.() ?? null);
  const [value, setValue] = useState(resumed?.value ?? initial);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const closed = useRef(false);
  const removing = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  // A layout effect: a resumed editor takes the focus back in the task that removed the old one,
  // so no key typed meanwhile lands on the page. It does so only if the focus is still lost.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    if (!resumed) {
      input.focus();
      input.select();
    } else if (focusFellToPage()) {
      input.focus();
      input.setSelectionRange(resumed.start, resumed.end);
    }
  }, [resumed]);

  const keepRef = useRef(keep);
  useLayoutEffect(() => {
    keepRef.current = keep;
  });
  // What the field opened on (a resumed editor: what its first one opened on). A title that arrives
  // while it is open changes `initial`, not the field: text left as it opened is not a rename.
  const [openedOn] = useState(() => resumed?.initial ?? initial);
  // The cleanup runs before React takes the input out of the page, so the blur that removal fires
  // is ignored.
  useLayoutEffect(() => {
    const input = inputRef.current;
    // Set up again after Strict Mode's trial unmount (development): the input is still there.
    removing.current = false;
    return () => {
      removing.current = true;
      if (!closed.current && input) keepRef.current?.({ value: input.value, initial: openedOn, start: input.selectionStart, end: input.selectionEnd });
    };
  }, [openedOn]);

  const close = (exit: EditorExit) => {
    if (closed.current) return;
    closed.current = true;
    onClose(exit);
  };

  const save = async (exit: EditorExit) => {
    if (closed.current || checking) return;
    if (value === initial || value === openedOn) return close(exit);
    if (normalizeUserTitle(value).ok) {
      close(exit);
      const result = await rename(value);
      if (!result.ok && result.message) toast.error(result.message);
      return;
    }
    setChecking(true);
    const result = await rename(value);
    setChecking(false);
    if (result.ok) return close(exit);
    if (!result.message) return close(exit);
    // Left for another element: the focus stays there, nothing changes, and a toast says why.
    if (exit === "away") {
      close(exit);
      toast.error(result.message);
      return;
    }
    setError(result.message);
    inputRef.current?.focus();
  };

  return (
    <div className={clsx("flex min-w-0 flex-1 flex-col gap-1 px-1 py-1", className)}>
      <input
        ref={inputRef}
        data-testid="title-input"
        // Escape here cancels the rename only: the drawer around it must not close too.
        data-own-escape=""
        aria-label="Conversation title"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        aria-busy={checking || undefined}
        value={value}
        readOnly={checking}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (isComposingKey(e.nativeEvent)) return;
          if (e.key === "Enter") {
            e.preventDefault();
            void save("key");
          } else if (e.key === "Escape") {
            e.preventDefault();
            close("key");
          }
        }}
        // After a refusal, leaving the field gives up (nothing changes) instead of retrying.
        onBlur={(e) => {
          if (removing.current) return;
          const exit = e.relatedTarget ? "away" : "blur";
          if (error) close(exit);
          else void save(exit);
        }}
        className="h-8 w-full rounded border border-blue-600 bg-white px-1.5 text-sm outline-none ring-2 ring-blue-600/30 dark:border-blue-400 dark:bg-neutral-900"
      />
      {error ? (
        <p id={errorId} role="alert" data-testid="title-error" className="px-1 text-xs text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
