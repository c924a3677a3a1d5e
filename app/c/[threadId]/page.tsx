import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ChatView, type ChatState } from "@/components/chat/ChatView";
import { CONVERSATION_NOT_FOUND, documentTitleFor } from "@/lib/client/document-title";
import { titleFactOf } from "@/lib/title";
import { loadAppInfo, loadThread } from "../../_data";

type Params = { params: Promise<{ threadId: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { threadId } = await params;
  const thread = await loadThread(threadId);
  return { title: documentTitleFor(thread ? titleFactOf(thread.values).title : CONVERSATION_NOT_FOUND) };
}

export default async function ConversationPage({ params }: Params) {
  const { threadId } = await params;
  const thread = await loadThread(threadId);
  if (!thread) notFound();
  const values = (thread.values ?? {}) as ChatState;
  return (
    <ChatView
      key={threadId}
      threadId={threadId}
      initialValues={{ ...values, messages: Array.isArray(values.messages) ? values.messages : [] }}
      initialFact={titleFactOf(thread.values)}
      app={loadAppInfo()}
    />
  );
}
