"use client";
import { lazy, Suspense } from "react";
import type { AppInfo } from "@/lib/client/app-info";
import { useShell } from "@/components/shell/shell-context";

const ChatView = lazy(() => import("./ChatView").then((m) => ({ default: m.ChatView })));

/** The new-conversation page's chat: a fresh ChatView every time "New conversation" is chosen. */
export function NewChat({ app }: { app: AppInfo }) {
  const { newChatKey } = useShell();
  return (
    <Suspense fallback={<div className="flex h-dvh min-w-0 flex-1 flex-col" data-testid="chat-loading" />}>
      <ChatView key={newChatKey} threadId={null} app={app} />
    </Suspense>
  );
}
