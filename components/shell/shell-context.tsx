"use client";
import { createContext, useContext } from "react";

export interface ShellControls {
  openDrawer: () => void;
  /** Ref for the header's menu button: closing the drawer gives it the focus back. */
  drawerButtonRef: (el: HTMLButtonElement | null) => void;
  /** Starts a fresh conversation (also when the new-chat page already shows a thread). */
  startNewChat: () => void;
  /** Changes on every startNewChat: the new-chat page keys its ChatView with it. */
  newChatKey: number;
}

export const ShellContext = createContext<ShellControls>({
  openDrawer: () => undefined,
  drawerButtonRef: () => undefined,
  startNewChat: () => undefined,
  newChatKey: 0,
});

export const useShell = () => useContext(ShellContext);
