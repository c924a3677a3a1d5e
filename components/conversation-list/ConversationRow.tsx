"use client";
import clsx from "clsx";
import Link from "next/link";
import { memo } from "react";
import { EMPTY_TITLE } from "@/lib/title";
import { provenanceLabel } from "@/lib/client/resolve-row-title";
import { sameRowView } from "@/lib/client/thread-list-model";
import { threadIdFromPath } from "@/lib/client/use-active-thread";
import type { RowView } from "@/lib/client/types";
import { LockIcon, StarIcon } from "@/components/ui/icons";
import { Tooltip } from "@/components/ui/tooltip";
import { RowMenu } from "./RowMenu";
import type { RowActions } from "./row-actions";
import { TitleEditor } from "./TitleEditor";

export const ROW_HEIGHT = 36;

interface ConversationRowProps {
  row: RowView;
  active: boolean;
  editing: boolean;
  actions: RowActions;
}

function ConversationRowImpl({ row, active, editing, actions }: ConversationRowProps) {
  const shown = row.title ?? EMPTY_TITLE;
  const pinned = row.source?.kind === "user";
  const provenance = provenanceLabel(row.source);
  return (
    <div
      data-testid="thread-row"
      data-thread-id={row.id}
      data-title-source={row.source?.kind ?? "none"}
      data-pending={row.pending ? "true" : undefined}
      style={{ height: ROW_HEIGHT }}
      className={clsx(
        "group relative flex items-center rounded-md text-sm",
        active ? "bg-neutral-200 dark:bg-neutral-800" : "hover:bg-neutral-100 dark:hover:bg-neutral-800/60",
      )}
    >
      {editing ? (
        <TitleEditor initial={row.title ?? ""} rename={(raw) => actions.rename(row.id, raw)} onClose={actions.endEdit} />
      ) : (
        <Tooltip content={provenance}>
          <Link
            href={`/c/${row.id}`}
            data-testid="thread-link"
            aria-current={active ? "page" : undefined}
            onClick={(e) => {
              // Already open (maybe via the new-chat page's in-place URL): don't remount the chat.
              const plain = !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && e.button === 0;
              if (plain && threadIdFromPath(window.location.pathname) === row.id) e.preventDefault();
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
            className="flex h-full min-w-0 flex-1 items-center gap-1.5 rounded-md pl-2 pr-9 outline-none focus-visible:ring-2 focus-visible:ring-blue-500 md:pr-2 md:group-focus-within:pr-9 md:group-hover:pr-9 md:group-has-[[data-state=open]]:pr-9"
          >
            {row.starred ? <StarIcon filled className="shrink-0 text-amber-500" title="Starred" /> : null}
            <bdi
              data-testid="thread-title"
              className={clsx("min-w-0 truncate", row.pending && "title-shimmer", !row.title && "text-neutral-500")}
            >
              {shown}
            </bdi>
            {pinned ? (
              <LockIcon data-testid="title-lock" className="shrink-0 text-neutral-500" width={12} height={12} title="Title pinned" />
            ) : null}
            <span className="sr-only">, {provenance}</span>
          </Link>
        </Tooltip>
      )}
      {editing ? null : (
        <div className="absolute right-0 top-1/2 -translate-y-1/2">
          <RowMenu
          threadId={row.id}
          title={shown}
          starred={row.starred}
          pinned={pinned}
          onRename={() => actions.startEdit(row.id)}
          onToggleStar={() => actions.setStarred(row.id, !row.starred)}
          onRegenerate={() => actions.regenerate(row.id)}
          onDelete={() => actions.remove(row.id, shown)}
          />
        </div>
      )}
    </div>
  );
}

/** Re-renders only when what it shows changed, including the title (unlike a memo that ignores it). */
export const ConversationRow = memo(
  ConversationRowImpl,
  (a, b) => a.active === b.active && a.editing === b.editing && a.actions === b.actions && sameRowView(a.row, b.row),
);
