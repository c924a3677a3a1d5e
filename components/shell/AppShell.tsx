"use client";
import * as Dialog from "@radix-ui/react-dialog";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { focusFellToPage } from "@/lib/client/focus-fell";
import { DESKTOP_QUERY } from "@/lib/client/use-media-query";
import { useBackgroundRuns } from "@/lib/client/use-background-runs";
import { useCrossTabSync, useDeletedOnLeaving } from "@/lib/client/use-cross-tab-sync";
import { useKeptOwner } from "@/lib/client/use-kept-owner";
import { answerTabQuestions } from "@/lib/client/tab-presence";
import { useCalendarOffset } from "@/lib/client/use-calendar-offset";
import { useNow } from "@/lib/client/use-now";
import { useThreadList, type InitialList } from "@/lib/client/use-thread-list";
import { noteServerTime } from "@/lib/client/thread-pages";
import { ConversationList } from "@/components/conversation-list/ConversationList";
import { CloseIcon, PlusIcon } from "@/components/ui/icons";
import { ShellContext, type ShellControls } from "./shell-context";
import { TitleAnnouncer } from "./TitleAnnouncer";
import { AccountMenu, type SignedInAccount } from "./AccountMenu";
import { isComposingKey } from "@/lib/client/composing";

interface AppShellProps {
  initialList: InitialList;
  serverNow: number;
  /** The browser's UTC offset as last reported in a cookie (or the server's): see useCalendarOffset. */
  tzOffsetMin: number;
  /** The signed-in person (accounts mode); null in local mode, where nobody signs in. */
  account?: SignedInAccount | null;
  children: ReactNode;
}

/** How long after the drawer closed a freshly mounted menu button (the next page's) takes the focus. */
const REFOCUS_WINDOW_MS = 5_000;

/**
 * Something in the drawer handles Escape itself (a rename, a search to clear), or it ends an input
 * method's composition: the drawer stays open.
 */
const handlesOwnEscape = (e: KeyboardEvent) => isComposingKey(e) || Boolean((e.target as HTMLElement | null)?.closest?.("[data-own-escape]"));

function NewChatButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      data-testid="new-chat"
      onClick={onClick}
      className="flex min-h-11 w-full items-center gap-2 rounded-md border border-neutral-300 px-3 py-2 text-sm font-medium hover:bg-neutral-100 md:min-h-0 dark:border-neutral-700 dark:hover:bg-neutral-800"
    >
      <PlusIcon /> New conversation
    </button>
  );
}

/** Sidebar (a drawer on narrow screens) + the page. Lives in the root layout: never remounts. */
export function AppShell({ initialList, serverNow, tzOffsetMin: renderedOffset, account = null, children }: AppShellProps) {
  const router = useRouter();
  // Before any child reads a draft: what this browser keeps is this person's alone.
  useKeptOwner(account?.id ?? null);
  const now = useNow(serverNow);
  const tzOffsetMin = useCalendarOffset(renderedOffset);
  useEffect(() => noteServerTime(serverNow), [serverNow]);
  // Other tabs may ask whether this one is open (a send it left; a duplicated tab's id).
  useEffect(() => answerTabQuestions(), []);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [newChatKey, setNewChatKey] = useState(0);
  const asideSearch = useRef<HTMLInputElement>(null);
  const drawerSearch = useRef<HTMLInputElement>(null);
  const focusDrawerSearch = useRef(false);
  const drawerButton = useRef<HTMLButtonElement | null>(null);
  const refocusDrawerButtonUntil = useRef(0);
  // A row followed from the drawer mounts a new page, and a new menu button: focus goes there.
  const drawerButtonRef = useCallback((el: HTMLButtonElement | null) => {
    drawerButton.current = el;
    if (el && Date.now() < refocusDrawerButtonUntil.current && focusFellToPage()) {
      refocusDrawerButtonUntil.current = 0;
      el.focus();
    }
  }, []);

  useBackgroundRuns();
  // A delete made in another tab hides the row here; an open conversation says so itself (ChatView).
  useCrossTabSync();
  useDeletedOnLeaving();

  const startNewChat = useCallback(() => {
    setNewChatKey((k) => k + 1);
    setDrawerOpen(false);
    router.push("/");
  }, [router]);
  const controls = useMemo<ShellControls>(
    () => ({ openDrawer: () => setDrawerOpen(true), drawerButtonRef, startNewChat, newChatKey }),
    [drawerButtonRef, startNewChat, newChatKey],
  );

  // Ctrl/Cmd+K: focus the title search (opening the drawer on narrow screens).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== "k" || !(e.ctrlKey || e.metaKey) || e.altKey) return;
      e.preventDefault();
      if (window.matchMedia(DESKTOP_QUERY).matches) {
        asideSearch.current?.focus();
        asideSearch.current?.select();
      } else {
        focusDrawerSearch.current = true;
        setDrawerOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const { model } = useThreadList("", initialList, now, tzOffsetMin);

  return (
    <ShellContext.Provider value={controls}>
      <a
        href="#conversation"
        data-testid="skip-link"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[60] focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-blue-700 focus:shadow-lg focus:outline-2 focus:outline-blue-600 dark:focus:bg-neutral-900 dark:focus:text-blue-300"
      >
        Skip to conversation
      </a>
      <div className="flex h-dvh overflow-hidden">
        <aside
          data-testid="sidebar"
          className="hidden w-72 shrink-0 flex-col border-r border-neutral-200 bg-neutral-50 md:flex dark:border-neutral-800 dark:bg-neutral-900/60"
        >
          <div className="flex items-center justify-between px-4 pb-2 pt-4">
            <span className="text-sm font-semibold tracking-tight">Threadline</span>
          </div>
          <div className="px-2 pb-2">
            <NewChatButton onClick={startNewChat} />
          </div>
          <ConversationList initialList={initialList} now={now} tzOffsetMin={tzOffsetMin} searchRef={asideSearch} />
          {account ? <AccountMenu account={account} /> : null}
        </aside>
        <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40 md:hidden" />
            <Dialog.Content
              data-testid="drawer"
              onOpenAutoFocus={(e) => {
                if (focusDrawerSearch.current) {
                  e.preventDefault();
                  drawerSearch.current?.focus();
                }
                focusDrawerSearch.current = false;
              }}
              onEscapeKeyDown={(e) => {
                if (handlesOwnEscape(e)) e.preventDefault();
              }}
              onCloseAutoFocus={(e) => {
                // Back to the menu button that opens the drawer (a new one if a row opened a page).
                e.preventDefault();
                refocusDrawerButtonUntil.current = Date.now() + REFOCUS_WINDOW_MS;
                if (drawerButton.current?.isConnected) drawerButton.current.focus();
              }}
              className="fixed inset-y-0 left-0 z-50 flex w-80 max-w-[85vw] flex-col bg-neutral-50 shadow-xl outline-none md:hidden dark:bg-neutral-900"
            >
              <div className="flex items-center justify-between px-4 pb-2 pt-4">
                <Dialog.Title className="text-sm font-semibold">Conversations</Dialog.Title>
                <Dialog.Description className="sr-only">Your conversations, newest first</Dialog.Description>
                <Dialog.Close
                  aria-label="Close conversations"
                  data-testid="close-drawer"
                  className="grid size-11 place-items-center rounded-md hover:bg-neutral-200 dark:hover:bg-neutral-800"
                >
                  <CloseIcon />
                </Dialog.Close>
              </div>
              <div className="px-2 pb-2">
                <NewChatButton onClick={startNewChat} />
              </div>
              <ConversationList
                initialList={initialList}
                now={now}
                tzOffsetMin={tzOffsetMin}
                searchRef={drawerSearch}
                onNavigate={closeDrawer}
                onUndoable={closeDrawer}
              />
              {account ? <AccountMenu account={account} onNavigate={closeDrawer} /> : null}
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <main id="conversation" tabIndex={-1} className="flex min-w-0 flex-1 flex-col outline-none">
          {children}
        </main>
      </div>
      <TitleAnnouncer model={model} />
    </ShellContext.Provider>
  );
}
