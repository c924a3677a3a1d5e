"use client";
import { useEffect } from "react";
import { documentTitleFor } from "@/lib/client/document-title";
import { NewChatHeaderButton, OpenDrawerButton } from "./HeaderButtons";

/**
 * The header of a page that is not a conversation (e.g. "Conversation not found"): the same
 * drawer and new-chat buttons as the chat header, so a phone is never stranded, and the tab title.
 */
export function PageHeader({ title }: { title: string }) {
  // Client navigations keep the previous page's tab title unless someone sets it.
  useEffect(() => {
    document.title = documentTitleFor(title);
  }, [title]);

  return (
    <header className="flex h-14 shrink-0 items-center gap-2 border-b border-neutral-200 px-3 dark:border-neutral-800">
      <OpenDrawerButton />
      <h1 data-testid="page-title" className="min-w-0 flex-1 truncate text-base font-semibold">
        {title}
      </h1>
      <NewChatHeaderButton />
    </header>
  );
}
