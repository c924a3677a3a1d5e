"use client";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { History } from "lucide-react";
import { useId, useRef, type CSSProperties } from "react";
import { EMPTY_TITLE } from "@/lib/title";
import type { RowView } from "@/lib/client/types";
import { PencilIcon, SparklesIcon, StarIcon, TrashIcon } from "@/components/ui/icons";
import { Tooltip } from "@/components/ui/tooltip";
import { NOT_OFFERED, usesStandardApi } from "@/lib/client/api-flavor";
import { regenerateLabel, titleModelSet } from "@/lib/client/title-model-setting";
import { CONVERSATION_LIST_ATTRIBUTE } from "@/lib/client/focus-fell";
import { NO_ANCHOR } from "./list-anchor";
import { MENU_BUTTON } from "./list-keyboard";

export const REGENERATE_BUSY_REASON = "Available when the answer has finished";

/** The id of a row's "…" button (the shared menu is labelled by it). */
export const menuButtonId = (listId: string, threadId: string) => `${listId}-menu-${threadId}`;

interface RowMenuButtonProps {
  listId: string;
  threadId: string;
  title: string;
  open: boolean;
  /** `toggle` for a press, Enter or Space; `open` for ↓ (as Radix's own trigger does). */
  onPress: (threadId: string, button: HTMLElement, how: "toggle" | "open") => void;
}

/** A row's "…" button: a plain button that opens the list's one menu (RowMenu) for its row. */
export function RowMenuButton({ listId, threadId, title, open, onPress }: RowMenuButtonProps) {
  return (
    <button
      id={menuButtonId(listId, threadId)}
      type="button"
      data-testid="row-menu-button"
      aria-label={`Options for ${title}`}
      aria-haspopup="menu"
      aria-expanded={open}
      aria-controls={open ? `${listId}-menu` : undefined}
      data-state={open ? "open" : "closed"}
      // The list is one tab stop: this button is reached with → from the row (see ConversationList).
      tabIndex={-1}
      onPointerDown={(e) => {
        if (e.button !== 0 || e.ctrlKey) return;
        // Opening: keep focus off the button, the menu takes it (what Radix's trigger does).
        if (!open) e.preventDefault();
        onPress(threadId, e.currentTarget, "toggle");
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") onPress(threadId, e.currentTarget, "toggle");
        else if (e.key === "ArrowDown") onPress(threadId, e.currentTarget, "open");
        else return;
        e.preventDefault();
      }}
      className="absolute right-0.5 top-1/2 grid size-11 -translate-y-1/2 shrink-0 place-items-center rounded text-neutral-600 hover:bg-neutral-200 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-blue-600 data-[state=open]:bg-neutral-200 md:right-1 md:size-7 md:opacity-0 md:data-[state=open]:opacity-100 md:group-focus-within:opacity-100 md:group-hover:opacity-100 dark:text-neutral-300 dark:hover:bg-neutral-700 dark:data-[state=open]:bg-neutral-700"
    >
      {/* lucide's Ellipsis as one path, not the icon component: one per row, mounted while scrolling. */}
      <svg aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 24 24" fill="currentColor">
        <path d="M3 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0M10 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0M17 12a2 2 0 1 0 4 0a2 2 0 1 0-4 0" />
      </svg>
    </button>
  );
}

export interface RowMenuActions {
  rename: (threadId: string) => void;
  setStarred: (threadId: string, starred: boolean) => void;
  regenerate: (threadId: string) => void;
  remove: (threadId: string, title: string) => void;
  history: (threadId: string) => void;
}

interface RowMenuProps {
  listId: string;
  /** The row whose "…" was pressed, or null (closed). */
  row: RowView | null;
  anchor: CSSProperties | null;
  close: () => void;
  /** Focus back on the row's button (looked up by id: the row may have re-rendered). */
  refocus: (threadId: string) => void;
  actions: RowMenuActions;
}

const itemClass =
  "flex min-h-11 cursor-default select-none items-center gap-2 rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-neutral-100 aria-disabled:text-neutral-600 md:min-h-0 dark:data-[highlighted]:bg-neutral-800 dark:aria-disabled:text-neutral-400";

/**
 * The list's one row menu, opened for the row whose "…" was pressed. One Radix DropdownMenu for
 * the list instead of one per row (each a DismissableLayer root with document listeners): its
 * trigger is an invisible anchor laid over the pressed button.
 */
export function RowMenu({ listId, row, anchor, close, refocus, actions }: RowMenuProps) {
  // Rename moves focus into the row's input, the history panel into itself and delete to the
  // next row: the closing menu must not pull it back to this row's button.
  const keepFocusAway = useRef(false);
  const interactedOutside = useRef(false);
  const triggerId = useId();
  // On a LangGraph server (LANGGRAPH_API_URL) title history and regenerate are Threadline API
  // extensions it does not have: shown disabled, the tooltip says why.
  const standard = usesStandardApi();
  const regenerateReason = standard ? NOT_OFFERED : row?.busy ? REGENERATE_BUSY_REASON : null;
  const title = row ? (row.title ?? EMPTY_TITLE) : "";
  const pinned = row?.source?.kind === "user";
  return (
    <DropdownMenu.Root modal={false} open={row !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <DropdownMenu.Trigger asChild>
        <span id={triggerId} aria-hidden="true" data-testid="row-menu-anchor" style={anchor ?? NO_ANCHOR} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        {row ? (
          <DropdownMenu.Content
            id={`${listId}-menu`}
            aria-labelledby={menuButtonId(listId, row.id)}
            align="start"
            sideOffset={4}
            data-testid="row-menu"
            // Portalled out of the list: marked as the list's, so focus in it counts as in the list
            // (the new chat's composer, mounting as the page hydrates, then leaves it where it is).
            {...{ [CONVERSATION_LIST_ATTRIBUTE]: "" }}
            onInteractOutside={(e) => {
              // A press on a "…" button is that button's to handle (it toggles or moves the menu).
              const target = e.target as HTMLElement | null;
              if (target?.closest?.(MENU_BUTTON)) e.preventDefault();
              else interactedOutside.current = true;
            }}
            onCloseAutoFocus={(e) => {
              // Radix would focus its trigger, the invisible anchor: the row's button instead.
              // (Called as the content unmounts, with the props of its last render: `row` is set.)
              e.preventDefault();
              if (!keepFocusAway.current && !interactedOutside.current) refocus(row.id);
              keepFocusAway.current = false;
              interactedOutside.current = false;
            }}
            className="z-50 min-w-44 rounded-md border border-neutral-200 bg-white p-1 shadow-lg dark:border-neutral-700 dark:bg-neutral-900"
          >
            <DropdownMenu.Item
              className={itemClass}
              data-testid="menu-rename"
              onSelect={() => {
                keepFocusAway.current = true;
                actions.rename(row.id);
              }}
            >
              <PencilIcon /> Rename
            </DropdownMenu.Item>
            <DropdownMenu.Item className={itemClass} data-testid="menu-star" onSelect={() => actions.setStarred(row.id, !row.starred)}>
              <StarIcon filled={!row.starred} /> {row.starred ? "Unstar" : "Star"}
            </DropdownMenu.Item>
            <Tooltip content={NOT_OFFERED} disabled={!standard} side="right">
              <DropdownMenu.Item
                className={itemClass}
                data-testid="menu-title-history"
                aria-disabled={standard || undefined}
                onSelect={(e) => {
                  if (standard) return e.preventDefault();
                  keepFocusAway.current = true;
                  actions.history(row.id);
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
                    actions.regenerate(row.id);
                  }}
                >
                  <SparklesIcon /> {regenerateLabel(standard ? null : titleModelSet())}
                </DropdownMenu.Item>
              </Tooltip>
            ) : null}
            <DropdownMenu.Separator className="my-1 h-px bg-neutral-200 dark:bg-neutral-700" />
            <DropdownMenu.Item
              className={`${itemClass} text-red-700 dark:text-red-400`}
              data-testid="menu-delete"
              onSelect={() => {
                keepFocusAway.current = true;
                actions.remove(row.id, title);
              }}
            >
              <TrashIcon /> Delete
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        ) : null}
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
