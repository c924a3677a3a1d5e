"use client";
import { useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { normalizeUserTitle } from "@/lib/title";
import type { RenameResult } from "@/lib/client/use-title-actions";

interface TitleEditorProps {
  initial: string;
  /** Sends the rename; resolves with the server's verdict. */
  rename: (raw: string) => Promise<RenameResult>;
  onClose: () => void;
}

/**
 * In-place title input. Enter or blur saves, Esc cancels. A title lib/title accepts is saved
 * optimistically (the editor closes at once); one it refuses gets lib/title's message (the same
 * the server would send; renameThread does not send it) inline while nothing changes.
 */
export function TitleEditor({ initial, rename, onClose }: TitleEditorProps) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const closed = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  useEffect(() => {
    const input = inputRef.current;
    input?.focus();
    input?.select();
  }, []);

  const close = () => {
    if (closed.current) return;
    closed.current = true;
    onClose();
  };

  const save = async () => {
    if (closed.current || checking) return;
    if (value === initial) return close();
    if (normalizeUserTitle(value).ok) {
      close();
      const result = await rename(value);
      if (!result.ok && result.message) toast.error(result.message);
      return;
    }
    setChecking(true);
    const result = await rename(value);
    setChecking(false);
    if (result.ok) return close();
    if (result.message) {
      setError(result.message);
      inputRef.current?.focus();
    } else close();
  };

  return (
    <div className="relative flex min-w-0 flex-1 px-1">
      <input
        ref={inputRef}
        data-testid="title-input"
        aria-label="Conversation title"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        value={value}
        maxLength={1000}
        disabled={checking}
        onChange={(e) => {
          setValue(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === "Enter" && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void save();
          } else if (e.key === "Escape") {
            e.preventDefault();
            close();
          }
        }}
        // After a refusal, leaving the field gives up (nothing changes) instead of retrying.
        onBlur={() => (error ? close() : void save())}
        className="w-full rounded border border-blue-500 bg-white px-1.5 py-1 text-sm outline-none ring-2 ring-blue-500/30 dark:bg-neutral-900"
      />
      {error ? (
        <p id={errorId} role="alert" data-testid="title-error" className="absolute left-1 right-1 top-full z-20 mt-0.5 rounded border border-red-300 bg-white px-2 py-1 text-xs text-red-700 shadow dark:border-red-800 dark:bg-neutral-900 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
