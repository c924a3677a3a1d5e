"use client";
import { useEffect } from "react";
import { documentTitleFor } from "@/lib/client/document-title";
import { MenuIcon, PlusIcon } from "@/components/ui/icons";
import { useShell } from "./shell-context";

/**
 * The header of a page that is not a conversation (e.g. "Conversation not found"): the same
 * drawer and new-chat buttons as the chat header, so a phone is never stranded, and the tab title.
 */
export function PageHeader({ title }: { title: string }) {
  const { openDrawer, startNewChat } = useShell();
  // Client navigations keep the previous page's tab title unless someone sets it.
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
        className="grid size-11 place-items-center rounded-md hover:bg-neutral-100 md:hidden dark:hover:bg-neutral-800"
      >
        <MenuIcon width={20} height={20} />
      </button>
      <h1 data-testid="page-title" className="min-w-0 flex-1 truncate text-base font-semibold">
        {title}
      </h1>
      <button
        type="button"
        data-testid="new-chat-header"
        onClick={startNewChat}
        aria-label="New conversation"
        className="grid size-11 place-items-center rounded-md hover:bg-neutral-100 md:hidden dark:hover:bg-neutral-800"
      >
        <PlusIcon width={20} height={20} />
      </button>
    </header>
  );
}
