"use client";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { History } from "lucide-react";
import { useRef, useState } from "react";
import { MoreIcon, PencilIcon, SparklesIcon, StarIcon, TrashIcon } from "@/components/ui/icons";
import { TitleHistoryPanel } from "@/components/title-history/TitleHistoryPanel";

interface RowMenuProps {
  threadId: string;
  title: string;
  starred: boolean;
  pinned: boolean;
  onRename: () => void;
  onToggleStar: () => void;
  onRegenerate: () => void;
  onDelete: () => void;
}

const itemClass =
  "flex cursor-default select-none items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-neutral-100 dark:data-[highlighted]:bg-neutral-800";

export function RowMenu({ threadId, title, starred, pinned, onRename, onToggleStar, onRegenerate, onDelete }: RowMenuProps) {
  // Rename moves focus into the row's input (the history panel into itself): don't let the closing menu pull it back.
  const keepFocusAway = useRef(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          ref={trigger}
          type="button"
          data-testid="row-menu-button"
          aria-label={`Options for ${title}`}
          className="mr-1 grid size-7 shrink-0 place-items-center rounded text-neutral-500 hover:bg-neutral-200 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-blue-500 data-[state=open]:bg-neutral-200 md:opacity-0 md:data-[state=open]:opacity-100 md:group-focus-within:opacity-100 md:group-hover:opacity-100 dark:hover:bg-neutral-700 dark:data-[state=open]:bg-neutral-700"
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
          <DropdownMenu.Item
            className={itemClass}
            data-testid="menu-title-history"
            onSelect={() => {
              keepFocusAway.current = true;
              setHistoryOpen(true);
            }}
          >
            <History width={16} height={16} aria-hidden="true" /> Title history
          </DropdownMenu.Item>
          {pinned ? (
            <DropdownMenu.Item className={itemClass} data-testid="menu-regenerate" onSelect={onRegenerate}>
              <SparklesIcon /> Let AI name this
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Separator className="my-1 h-px bg-neutral-200 dark:bg-neutral-700" />
          <DropdownMenu.Item
            className={`${itemClass} text-red-600 dark:text-red-400`}
            data-testid="menu-delete"
            onSelect={onDelete}
          >
            <TrashIcon /> Delete
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
      {/* Outside the menu's content, so it stays open after the menu closes. */}
      <TitleHistoryPanel threadId={threadId} open={historyOpen} onOpenChange={setHistoryOpen} returnFocusTo={trigger} />
    </DropdownMenu.Root>
  );
}
