import { contentToText } from "@/lib/title";

/**
 * The mark on an assistant message whose run was stopped (Stop, or another client's interrupt)
 * while it was being written: the server keeps the streamed text in state with
 * `response_metadata[STOPPED_ANSWER_KEY] === true`, the chat view shows it with a "stopped" mark.
 * Shared by server and browser, hence this framework-free module.
 */
export const STOPPED_ANSWER_KEY = "threadline_stopped";

/** A message's `response_metadata` (the model's name, the stopped mark), or null when it has none. */
export function responseMetadataOf(message: unknown): Record<string, unknown> | null {
  const meta = (message as { response_metadata?: unknown } | null)?.response_metadata;
  return typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>) : null;
}

export function isStoppedAnswer(message: unknown): boolean {
  return responseMetadataOf(message)?.[STOPPED_ANSWER_KEY] === true;
}

/**
 * The graph node a write from outside a run is attributed to (lib/agent's TITLE_WRITER_NODE, the
 * agent's last node: such a write leaves no step pending). The browser names it when it keeps a
 * stopped answer on a LangGraph server; a test keeps the two names equal.
 */
export const OUTSIDE_WRITE_NODE = "TitleMiddleware.after_agent";

/** What the reader saw of the answer being written when Stop was pressed. */
export interface StreamedAnswer {
  id: string | null;
  text: string;
}

type MessageLike = { id?: unknown; type?: unknown; content?: unknown };

/** The last message of the view, if it is an assistant's answer with text: what Stop would keep. */
export function streamedAnswerOf(messages: readonly unknown[]): StreamedAnswer | null {
  const last = messages.at(-1) as MessageLike | undefined;
  if (!last || (last.type !== "ai" && last.type !== "AIMessageChunk")) return null;
  const text = contentToText(last.content);
  return text.trim() ? { id: typeof last.id === "string" && last.id ? last.id : null, text } : null;
}

/**
 * The assistant message to write after Stop when the server kept nothing of the cut-off answer
 * (a LangGraph server; Threadline's own API writes it itself): the streamed text marked stopped,
 * or null when nothing was streamed or the thread already holds that message.
 */
export function stoppedAnswerToKeep(stateMessages: readonly unknown[], streamed: StreamedAnswer | null): Record<string, unknown> | null {
  if (!streamed || !streamed.text.trim()) return null;
  if (streamed.id && stateMessages.some((m) => (m as MessageLike)?.id === streamed.id)) return null;
  // With no id to go by: the answer the thread ends with, if it holds that very text.
  const last = stateMessages.at(-1) as MessageLike | undefined;
  if (!streamed.id && last?.type === "ai" && contentToText(last.content) === streamed.text) return null;
  return { type: "ai", ...(streamed.id ? { id: streamed.id } : {}), content: streamed.text, response_metadata: { [STOPPED_ANSWER_KEY]: true } };
}
