"use client";
import clsx from "clsx";
import { useEffect, useRef, useState } from "react";
import { EMPTY_TITLE, type TitleFact } from "@/lib/title";
import { focusFellToPage } from "@/lib/client/focus-fell";
import { documentTitleFor } from "@/lib/client/document-title";
import { useThreadTitle } from "@/lib/client/use-thread-title";
import { useTitleActions } from "@/lib/client/use-title-actions";
import { TitleEditor, type EditorExit } from "@/components/conversation-list/TitleEditor";
import { LockIcon } from "@/components/ui/icons";
import { TitleTooltipBody } from "@/components/ui/title-tooltip";
import { Tooltip } from "@/components/ui/tooltip";
import { NewChatHeaderButton, OpenDrawerButton } from "@/components/shell/HeaderButtons";
import { TitleHistoryButton } from "@/components/title-history/TitleHistoryButton";

/**
 * The conversation's title, from the same selector as its sidebar row; also sets the tab title.
 * Renamed in place like a row (double-click or F2), so a conversation opened by URL that no
 * loaded page holds can still be renamed.
 */
export function ChatHeader({ threadId, seed }: { threadId: string | null; seed?: TitleFact | null }) {
  const { title, source, pending } = useThreadTitle(threadId, seed);
  const { rename } = useTitleActions();
  const [editing, setEditing] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const returnFocus = useRef<EditorExit | null>(null);

  useEffect(() => {
    document.title = documentTitleFor(title);
  }, [title]);

  // After a rename the focus goes back to the title, not to the page.
  useEffect(() => {
    const exit = returnFocus.current;
    if (editing || !exit) return;
    returnFocus.current = null;
    if (exit === "away") return;
    if (exit === "key" || focusFellToPage()) titleRef.current?.focus();
  }, [editing]);

  const shown = title ?? EMPTY_TITLE;
  const startEdit = () => {
    if (threadId) setEditing(true);
  };

  return (
    <header className="flex h-14 shrink-0 items-center gap-2 border-b border-neutral-200 px-3 dark:border-neutral-800">
      <OpenDrawerButton />
      {editing && threadId ? (
        <TitleEditor
          initial={title ?? ""}
          rename={(raw) => rename(threadId, raw)}
          onClose={(exit) => {
            returnFocus.current = exit;
            setEditing(false);
          }}
          className="text-base"
        />
      ) : (
        <Tooltip content={<TitleTooltipBody title={shown} source={source} />} side="bottom" disabled={!threadId}>
          <h1
            ref={titleRef}
            data-testid="chat-title"
            data-title-source={source?.kind ?? "none"}
            tabIndex={threadId ? 0 : undefined}
            aria-keyshortcuts={threadId ? "F2" : undefined}
            onDoubleClick={startEdit}
            onKeyDown={(e) => {
              if (e.key === "F2") {
                e.preventDefault();
                startEdit();
              }
            }}
            className={clsx(
              "min-w-0 flex-1 truncate rounded text-base font-semibold outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:focus-visible:ring-blue-400",
              pending && "title-shimmer",
            )}
          ><bdi>{shown}</bdi></h1>
        </Tooltip>
      )}
      {source?.kind === "user" && !editing ? (
        <LockIcon data-testid="header-lock" className="shrink-0 text-neutral-600 dark:text-neutral-400" title="Title pinned by you" />
      ) : null}
      {threadId && title ? <TitleHistoryButton threadId={threadId} /> : null}
      <NewChatHeaderButton />
    </header>
  );
}
