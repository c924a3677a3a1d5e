"use client";
import clsx from "clsx";
import { useEffect } from "react";
import { EMPTY_TITLE, type TitleFact } from "@/lib/title";
import { documentTitleFor } from "@/lib/client/document-title";
import { provenanceLabel } from "@/lib/client/resolve-row-title";
import { useThreadTitle } from "@/lib/client/use-thread-title";
import { LockIcon, MenuIcon, PlusIcon } from "@/components/ui/icons";
import { useShell } from "@/components/shell/shell-context";
import { TitleHistoryButton } from "@/components/title-history/TitleHistoryButton";

/** The conversation's title, from the same selector as its sidebar row; also sets the tab title. */
export function ChatHeader({ threadId, seed }: { threadId: string | null; seed?: TitleFact | null }) {
  const { title, source, pending } = useThreadTitle(threadId, seed);
  const { openDrawer, startNewChat } = useShell();

  useEffect(() => {
    document.title = documentTitleFor(title);
  }, [title]);

  return (
    <header className="flex h-14 shrink-0 items-center gap-2 border-b border-neutral-200 px-3 dark:border-neutral-800">
      <button
        type="button"
        data-testid="open-drawer"
        aria-label="Open conversations"
        onClick={openDrawer}
        className="grid size-9 place-items-center rounded-md hover:bg-neutral-100 md:hidden dark:hover:bg-neutral-800"
      >
        <MenuIcon width={20} height={20} />
      </button>
      <h1
        data-testid="chat-title"
        data-title-source={source?.kind ?? "none"}
        title={title ? provenanceLabel(source) : undefined}
        className={clsx("min-w-0 flex-1 truncate text-base font-semibold", pending && "title-shimmer")}
      >
        <bdi>{title ?? EMPTY_TITLE}</bdi>
      </h1>
      {source?.kind === "user" ? (
        <LockIcon data-testid="header-lock" className="shrink-0 text-neutral-500" title="Title pinned by you" />
      ) : null}
      {threadId && title ? <TitleHistoryButton threadId={threadId} /> : null}
      <button
        type="button"
        data-testid="new-chat-header"
        onClick={startNewChat}
        aria-label="New conversation"
        className="grid size-9 place-items-center rounded-md hover:bg-neutral-100 md:hidden dark:hover:bg-neutral-800"
      >
        <PlusIcon width={20} height={20} />
      </button>
    </header>
  );
}
