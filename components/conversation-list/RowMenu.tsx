"use client";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { History } from "lucide-react";
import { useRef, useState } from "react";
import { MoreIcon, PencilIcon, SparklesIcon, StarIcon, TrashIcon } from "@/components/ui/icons";
import { Tooltip } from "@/components/ui/tooltip";
import { TitleHistoryPanel } from "@/components/title-history/TitleHistoryPanel";
import { NOT_OFFERED, usesStandardApi } from "@/lib/client/api-flavor";

interface RowMenuProps {
  threadId: string;
  title: string;
  starred: boolean;
  pinned: boolean;
  /** The conversation is answering: naming it now would race the run's own title. */
  busy: boolean;
  onRename: () => void;
  onToggleStar: () => void;
  onRegenerate: () => void;
  onDelete: () => void;
}

export const REGENERATE_BUSY_REASON = "Available when the answer has finished";

const itemClass =
  "flex min-h-11 cursor-default select-none items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-neutral-100 aria-disabled:text-neutral-600 md:min-h-0 dark:data-[highlighted]:bg-neutral-800 dark:aria-disabled:text-neutral-400";

export function RowMenu({ threadId, title, starred, pinned, busy, onRename, onToggleStar, onRegenerate, onDelete }: RowMenuProps) {
  // Rename moves focus into the row's input, the history panel into itself and delete to the
  // next row: the closing menu must not pull it back to this row's button.
  const keepFocusAway = useRef(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  // On a LangGraph server (LANGGRAPH_API_URL) title history and regenerate are Threadline API
  // extensions it does not have: shown disabled, the tooltip says why.
  const standard = usesStandardApi();
  const regenerateReason = standard ? NOT_OFFERED : busy ? REGENERATE_BUSY_REASON : null;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          ref={trigger}
          type="button"
          data-testid="row-menu-button"
          aria-label={`Options for ${title}`}
          // The list is one tab stop: this button is reached with → from the row (see ConversationList).
          tabIndex={-1}
          className="mr-0.5 grid size-11 shrink-0 place-items-center rounded text-neutral-600 hover:bg-neutral-200 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-blue-600 data-[state=open]:bg-neutral-200 md:mr-1 md:size-7 md:opacity-0 md:data-[state=open]:opacity-100 md:group-focus-within:opacity-100 md:group-hover:opacity-100 dark:text-neutral-300 dark:hover:bg-neutral-700 dark:data-[state=open]:bg-neutral-700"
        >
          <MoreIcon />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          data-testid="row-menu"
          onCloseAutoFocus={(e) => {
            if (keepFocusAway.current) e.preventDefault();
            keepFocusAway.current = false;
          }}
          className="z-50 min-w-44 rounded-md border border-neutral-200 bg-white p-1 shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
        >
          <DropdownMenu.Item
            className={itemClass}
            data-testid="menu-rename"
            onSelect={() => {
              keepFocusAway.current = true;
              onRename();
            }}
          >
            <PencilIcon /> Rename
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClass} data-testid="menu-star" onSelect={onToggleStar}>
            <StarIcon filled={!starred} /> {starred ? "Unstar" : "Star"}
          </DropdownMenu.Item>
          <Tooltip content={NOT_OFFERED} disabled={!standard} side="right">
            <DropdownMenu.Item
              className={itemClass}
              data-testid="menu-title-history"
              aria-disabled={standard || undefined}
              onSelect={(e) => {
                if (standard) return e.preventDefault();
                keepFocusAway.current = true;
                setHistoryOpen(true);
              }}
            >
              <History width={16} height={16} aria-hidden="true" /> Title history
            </DropdownMenu.Item>
          </Tooltip>
          {pinned ? (
            // Not `disabled`: a disabled item is skipped by the keyboard, and then its tooltip never shows.
            <Tooltip content={regenerateReason} disabled={!regenerateReason} side="right">
              <DropdownMenu.Item
                className={itemClass}
                data-testid="menu-regenerate"
                aria-disabled={regenerateReason ? true : undefined}
                onSelect={(e) => {
                  if (regenerateReason) return e.preventDefault();
                  onRegenerate();
                }}
              >
                <SparklesIcon /> Let AI name this
              </DropdownMenu.Item>
            </Tooltip>
          ) : null}
          <DropdownMenu.Separator className="my-1 h-px bg-neutral-200 dark:bg-neutral-700" />
          <DropdownMenu.Item
            className={`${itemClass} text-red-700 dark:text-red-400`}
            data-testid="menu-delete"
            onSelect={() => {
              keepFocusAway.current = true;
              onDelete();
            }}
          >
            <TrashIcon /> Delete
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
      {/* Outside the menu's content, so it stays open after the menu closes. */}
      {standard ? null : <TitleHistoryPanel threadId={threadId} open={historyOpen} onOpenChange={setHistoryOpen} returnFocusTo={trigger} />}
    </DropdownMenu.Root>
  );
}
