"use client";
import { MenuIcon, PlusIcon } from "@/components/ui/icons";
import { useShell } from "./shell-context";

const HEADER_BUTTON = "grid size-11 place-items-center rounded-md hover:bg-neutral-100 md:hidden dark:hover:bg-neutral-800";

/** The phone header's drawer button; closing the drawer returns focus to it. */
export function OpenDrawerButton() {
  const { openDrawer, drawerButtonRef } = useShell();
  return (
    <button ref={drawerButtonRef} type="button" data-testid="open-drawer" aria-label="Open conversations" onClick={openDrawer} className={HEADER_BUTTON}>
      <MenuIcon width={20} height={20} />
    </button>
  );
}

/** The phone header's new-conversation button. */
export function NewChatHeaderButton() {
  const { startNewChat } = useShell();
  return (
    <button type="button" data-testid="new-chat-header" onClick={startNewChat} aria-label="New conversation" className={HEADER_BUTTON}>
      <PlusIcon width={20} height={20} />
    </button>
  );
}
