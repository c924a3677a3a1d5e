import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ChatView, type ChatState } from "@/components/chat/ChatView";
import { SeedThreadRow } from "@/components/shell/SeedThreadRow";
import { CONVERSATION_NOT_FOUND, documentTitleFor } from "@/lib/client/document-title";
import { titleFactOf } from "@/lib/title";
import { loadAppInfo, loadMessagesUnderWay, loadThread, loadThreadRow, loadViewer, requireViewer } from "../../_data";

type Params = { params: Promise<{ threadId: string }> };

// The title comes from the registry row, like the sidebar's: never from `values`, which lags
// behind a pin made while a run is going.
export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { threadId } = await params;
  if (!(await loadViewer())) return {};
  const row = await loadThreadRow(threadId);
  return { title: documentTitleFor(row ? row.rows[0].title.title : CONVERSATION_NOT_FOUND) };
}

export default async function ConversationPage({ params }: Params) {
  await requireViewer();
  const { threadId } = await params;
  // Runs first (see loadMessagesUnderWay), then the thread.
  const underWay = await loadMessagesUnderWay(threadId);
  const [thread, row] = await Promise.all([loadThread(threadId), loadThreadRow(threadId)]);
  if (!thread) notFound();
  const values = (thread.values ?? {}) as ChatState;
  return (
    <>
      <SeedThreadRow key={`row:${threadId}`} threadId={threadId} page={row} />
      <ChatView
        key={threadId}
        threadId={threadId}
        initialValues={{ ...values, messages: Array.isArray(values.messages) ? values.messages : [] }}
        initialFact={row?.rows[0].title ?? titleFactOf(thread.values)}
        messagesUnderWay={underWay.messageIds}
        runUnderWay={underWay.runToFollow}
        app={loadAppInfo()}
      />
    </>
  );
}
