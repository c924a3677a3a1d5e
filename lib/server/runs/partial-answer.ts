import { AIMessage, AIMessageChunk } from "@langchain/core/messages";
import { STOPPED_ANSWER_KEY } from "@/lib/chat/stopped-answer";
import { contentToText } from "@/lib/title";
import { threadConfig, titleWriterNode, type AgentGraph } from "../graph";

/**
 * The assistant message a run is streaming, rebuilt from the graph's `messages` chunks — the
 * same chunks the client receives as `messages-tuple` events, so what is kept on Stop is what
 * the reader saw. Only the latest message matters: earlier ones of the run are already in state.
 */
export class StreamedAnswer {
  private id: string | null = null;
  private text = "";

  observe(payload: unknown): void {
    const chunk = Array.isArray(payload) ? payload[0] : undefined;
    if (!AIMessageChunk.isInstance(chunk)) return;
    const id = chunk.id ?? "";
    if (id !== this.id) {
      this.id = id;
      this.text = "";
    }
    this.text += contentToText(chunk.content);
  }

  get current(): { id: string | null; text: string } | null {
    return this.id === null ? null : { id: this.id || null, text: this.text };
  }
}

/**
 * After a run was interrupted mid-answer, writes the text streamed so far into the thread as an
 * assistant message marked stopped. Attributed to the title middleware's after-model node, like
 * every write from outside a run: with no tool call its out-edge ends the graph, so the cut-off
 * model step is no longer pending and the next run starts cleanly after the partial answer.
 * Nothing is written when nothing was streamed or the model had already finished that message.
 */
export async function keepPartialAnswer(graph: AgentGraph, threadId: string, answer: StreamedAnswer): Promise<boolean> {
  try {
    return await writePartialAnswer(graph, threadId, answer);
  } catch (err) {
    // The run is over either way; losing the partial text must not keep the thread busy.
    console.error("[runs] could not keep the stopped answer", threadId, err);
    return false;
  }
}

async function writePartialAnswer(graph: AgentGraph, threadId: string, answer: StreamedAnswer): Promise<boolean> {
  const partial = answer.current;
  if (!partial || !partial.text.trim()) return false;
  const snap = await graph.getState(threadConfig(threadId));
  const messages = ((snap.values as { messages?: { id?: string }[] } | undefined)?.messages ?? []);
  if (partial.id && messages.some((m) => m.id === partial.id)) return false;
  const message = new AIMessage({
    ...(partial.id ? { id: partial.id } : {}),
    content: partial.text,
    response_metadata: { [STOPPED_ANSWER_KEY]: true },
  });
  await graph.updateState(threadConfig(threadId), { messages: [message] }, titleWriterNode(graph));
  return true;
}
