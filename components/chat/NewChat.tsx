"use client";
import type { AppInfo } from "@/lib/client/app-info";
import { useShell } from "@/components/shell/shell-context";
import { ChatView } from "./ChatView";

/** The new-conversation page's chat: a fresh ChatView every time "New conversation" is chosen. */
export function NewChat({ app }: { app: AppInfo }) {
  const { newChatKey } = useShell();
  return <ChatView key={newChatKey} threadId={null} app={app} />;
}
