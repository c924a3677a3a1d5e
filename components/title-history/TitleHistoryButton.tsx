"use client";
import { History } from "lucide-react";
import { useRef, useState } from "react";
import { Tooltip } from "@/components/ui/tooltip";
import { NOT_OFFERED, usesStandardApi } from "@/lib/client/api-flavor";
import { TitleHistoryPanel } from "./TitleHistoryPanel";

/** The chat header's opener for the title history panel. */
export function TitleHistoryButton({ threadId }: { threadId: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // A LangGraph server (LANGGRAPH_API_URL) keeps no title history: disabled, the tooltip says why.
  if (usesStandardApi()) {
    return (
      <Tooltip content={NOT_OFFERED} side="bottom">
        <button
          type="button"
          data-testid="header-title-history"
          aria-label="Title history"
          aria-disabled="true"
          className="grid size-11 shrink-0 cursor-default place-items-center rounded-md text-neutral-400 md:size-9 dark:text-neutral-600"
        >
          <History width={18} height={18} aria-hidden="true" />
        </button>
      </Tooltip>
    );
  }
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
