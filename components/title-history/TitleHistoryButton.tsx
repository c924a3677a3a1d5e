"use client";
import { History } from "lucide-react";
import { useRef, useState } from "react";
import { TitleHistoryPanel } from "./TitleHistoryPanel";

/** The chat header's opener for the title history panel. */
export function TitleHistoryButton({ threadId }: { threadId: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={button}
        type="button"
        data-testid="header-title-history"
        aria-label="Title history"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        className="grid size-11 shrink-0 place-items-center rounded-md text-neutral-600 hover:bg-neutral-100 md:size-9 focus-visible:outline-2 focus-visible:outline-blue-500 dark:text-neutral-400 dark:hover:bg-neutral-800"
      >
        <History width={18} height={18} aria-hidden="true" />
      </button>
      <TitleHistoryPanel threadId={threadId} open={open} onOpenChange={setOpen} returnFocusTo={button} />
    </>
  );
}
