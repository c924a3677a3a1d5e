"use client";
import clsx from "clsx";
import { useRouter } from "next/navigation";
import { memo } from "react";
import { EMPTY_TITLE } from "@/lib/title";
import { describeTitleSource } from "@/lib/client/title-source-label";
import { sameRowView } from "@/lib/client/thread-list-model";
import { threadIdFromPath } from "@/lib/client/use-active-thread";
import type { RowView } from "@/lib/client/types";
import { HistoryIcon, LockIcon, StarIcon } from "@/components/ui/icons";
import { RowMenuButton } from "./RowMenu";
import type { RowActions } from "./row-actions";
import type { RowTipHandlers } from "./RowTooltip";
import { TitleEditor } from "./TitleEditor";

/** Row height on wide screens (the virtualiser's estimate); narrow screens use 44 px touch targets. */
export const ROW_HEIGHT = 36;

/** What a row found by a search through a title it had before says (icon label, tooltip). */
export const EARLIER_TITLE_NOTE = "Found by an earlier title (see Title history)";

interface ConversationRowProps {
  row: RowView;
  active: boolean;
  editing: boolean;
  /** The list's one tab stop (roving focus): only this row's link is in the Tab order. */
  tabbable: boolean;
  /** The list's one menu is open for this row. */
  menuOpen: boolean;
  /** The list's search matched a title this row had before, not the one it shows. */
  foundByEarlierTitle: boolean;
  /** Id prefix of this list (the desktop sidebar and the drawer each have one). */
  listId: string;
  actions: RowActions;
  tip: RowTipHandlers;
}

/**
 * A row is a plain link and a plain "…" button: the tooltip, the menu and the history dialog are
 * the list's, one each, opened for a row (RowTooltip, RowMenu). Nothing here mounts or swaps
 * elements on first use, so the first press on a row always lands on the link it pressed.
 */
function ConversationRowImpl({ row, active, editing, tabbable, menuOpen, foundByEarlierTitle, listId, actions, tip }: ConversationRowProps) {
  const shown = row.title ?? EMPTY_TITLE;
  const pinned = row.source?.kind === "user";
  const router = useRouter();
  const href = `/c/${row.id}`;
  // Prefetch on intent (pointer over, focus), never for merely scrolling past: Next's default
  // prefetches every link that enters the viewport, one server render per row scrolled by.
  const prefetch = () => router.prefetch(href);
  // A plain anchor that navigates with the router, not next/link: scrolling a long list mounts a
  // screen of rows at each step, and next/link's hooks and ref bookkeeping per row were a measured
  // part of that (bench/RESULTS.md). Modified clicks stay the browser's (new tab, new window).
  return (
    <div
      data-testid="thread-row"
      data-thread-id={row.id}
      data-title-source={row.source?.kind ?? "none"}
      data-pending={row.pending ? "true" : undefined}
      className={clsx(
        "group relative flex items-center rounded-md text-sm",
        editing ? "min-h-11 md:min-h-9" : "h-11 md:h-9",
        active ? "bg-neutral-200 dark:bg-neutral-800" : "hover:bg-neutral-100 dark:hover:bg-neutral-800/60",
      )}
    >
      {editing ? (
        <TitleEditor
          initial={row.title ?? ""}
          rename={(raw) => actions.rename(row.id, raw)}
          onClose={(exit) => actions.endEdit(row.id, exit)}
          keep={(edit) => actions.keepEdit(row.id, edit)}
          resume={() => actions.resumeEdit(row.id)}
        />
      ) : (
        <a
          href={href}
          onMouseEnter={prefetch}
          onFocus={(e) => {
            prefetch();
            tip.focus(e, row.id);
          }}
          onBlur={tip.hide}
          onPointerMove={(e) => tip.pointerMove(e, row.id)}
          onPointerLeave={() => tip.pointerLeave(row.id)}
          onPointerDown={tip.pointerDown}
          data-testid="thread-link"
          tabIndex={tabbable ? 0 : -1}
          aria-current={active ? "page" : undefined}
          aria-keyshortcuts="F2"
          onClick={(e) => {
            tip.hide();
            // Already open (maybe via the new-chat page's in-place URL): don't remount the chat.
            const plain = !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && e.button === 0;
            if (plain) {
              e.preventDefault();
              if (threadIdFromPath(window.location.pathname) !== row.id) router.push(href);
            }
            actions.navigated();
          }}
          onDoubleClick={(e) => {
            e.preventDefault();
            actions.startEdit(row.id);
          }}
          onKeyDown={(e) => {
            if (e.key === "F2") {
              e.preventDefault();
              actions.startEdit(row.id);
            }
          }}
          className="flex h-full min-w-0 flex-1 items-center gap-1.5 rounded-md pl-2 pr-12 outline-none focus-visible:ring-2 focus-visible:ring-blue-600 md:pr-2 md:group-focus-within:pr-9 md:group-hover:pr-9 md:group-has-[[data-state=open]]:pr-9 dark:focus-visible:ring-blue-400"
        >
          {row.starred ? <StarIcon filled className="shrink-0 text-amber-600 dark:text-amber-400" title="Starred" /> : null}
          <bdi
            data-testid="thread-title"
            className={clsx("min-w-0 truncate", row.pending && "title-shimmer", !row.title && "text-neutral-600 dark:text-neutral-400")}
          >
            {shown}
          </bdi>
          {pinned ? (
            <LockIcon data-testid="title-lock" className="shrink-0 text-neutral-600 dark:text-neutral-400" width={12} height={12} title="Title pinned" />
          ) : null}
          {foundByEarlierTitle ? (
            <HistoryIcon data-testid="earlier-title-match" className="shrink-0 text-neutral-600 dark:text-neutral-400" width={12} height={12} />
          ) : null}
          <span className="sr-only">
            , {describeTitleSource(row.source)}
            {foundByEarlierTitle ? `. ${EARLIER_TITLE_NOTE}` : null}
          </span>
        </a>
      )}
      {editing ? null : (
        <RowMenuButton listId={listId} threadId={row.id} title={shown} open={menuOpen} onPress={actions.menuPress} />
      )}
    </div>
  );
}

/** Re-renders only when what it shows changed, including the title (unlike a memo that ignores it). */
export const ConversationRow = memo(
  ConversationRowImpl,
  (a, b) =>
    a.active === b.active &&
    a.editing === b.editing &&
    a.tabbable === b.tabbable &&
    a.menuOpen === b.menuOpen &&
    a.foundByEarlierTitle === b.foundByEarlierTitle &&
    a.listId === b.listId &&
    a.actions === b.actions &&
    a.tip === b.tip &&
    sameRowView(a.row, b.row),
);
