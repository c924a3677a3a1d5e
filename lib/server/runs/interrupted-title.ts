import { decideTitle, fallbackTitle, firstUserText, isRealUserMessage, sameTitleFact, titleFactOf, userMessageText, type TitleConfig, type TitleFact, type TitleSource } from "@/lib/title";
import type { StateSnapshot } from "@langchain/langgraph";
import { threadConfig, titleWriterNode, writeTitleToCheckpoint, type AgentGraph } from "../graph";
import type { Registry } from "../store/registry";

const FALLBACK: TitleSource = { kind: "fallback" };
const MAX_ATTEMPTS = 3;

export interface InterruptedTitleDeps {
  graph: AgentGraph;
  registry: Registry;
  titleConfig: TitleConfig;
}

const messagesOf = (values: unknown): unknown[] => {
  const m = (values as { messages?: unknown } | null | undefined)?.messages;
  return Array.isArray(m) ? m : [];
};

const lastUserText = (messages: unknown[]) => {
  const last = messages.findLast(isRealUserMessage);
  return last === undefined ? null : userMessageText(last);
};

const checkpointIdOf = (snap: { config?: { configurable?: Record<string, unknown> } }) => snap.config?.configurable?.checkpoint_id ?? null;

/**
 * Whether the thread's latest checkpoint itself holds `visible`. `getState` on the latest
 * checkpoint also applies its pending writes (tasks of a step that finished before the process
 * died, the step's own checkpoint never written): a title there is shown, but the next run with
 * input starts from the checkpoint and drops those writes, so the title would be lost for good.
 * Read at that checkpoint's id, the state is the checkpoint alone.
 */
async function heldByCheckpoint(graph: AgentGraph, threadId: string, snap: StateSnapshot, visible: TitleFact): Promise<boolean> {
  const checkpointId = checkpointIdOf(snap);
  // Only a task with stored output (its `result`) has writes that getState applied.
  if (typeof checkpointId !== "string" || !snap.tasks.some((t) => t.result !== undefined)) return true;
  const own = await graph.getState(threadConfig(threadId, { checkpoint_id: checkpointId }));
  return sameTitleFact(titleFactOf(own.values), visible);
}

/**
 * The run's input messages when the run was stopped before its first step stored them: the
 * input carries a user message and the thread's last user message is not that one. (A user who
 * sends the very same text twice in a row and loses the second to a crash is the blind spot.)
 */
function unsavedInput(stored: unknown[], input: unknown): unknown[] {
  const sent = messagesOf(input);
  const text = firstUserText(sent);
  return text != null && lastUserText(stored) !== text ? sent : [];
}

/**
 * Completes what an interrupted run (cancel, error, timeout, crash) left behind:
 *
 * - A first run that ended untitled (TITLE_INSTANT off, or stopped before its first step) gets the
 *   fallback title from the user's first message now, not only with the next message's run.
 * - A run stopped before its first step stored the user's message: the message is written, so
 *   nothing the user sent is lost.
 * - A title only in the latest checkpoint's pending writes (a crash between a step's writes and
 *   its checkpoint) is written into a checkpoint, or the next message would drop it.
 *
 * Stale-snapshot safe: read the latest checkpoint, stop if nothing is owed, compute, re-read,
 * and start over (at most 3 times) if another writer moved the thread meanwhile. The one
 * precedence rule decides the title, against the registry's pin when a rename is owed, so it
 * never replaces a pin. Returns whether anything was written.
 */
export async function titleInterruptedThread(d: InterruptedTitleDeps, threadId: string, input: unknown): Promise<boolean> {
  const config = threadConfig(threadId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const snap = await d.graph.getState(config);
    const stored = messagesOf(snap.values);
    const unsaved = unsavedInput(stored, input);
    const current = titleFactOf(snap.values);
    const userText = firstUserText(stored) ?? firstUserText(unsaved);
    let proposal = d.titleConfig.enabled && !current.title?.trim() && userText != null ? { title: fallbackTitle(userText, d.titleConfig), source: FALLBACK } : null;
    if (!proposal && current.title && !(await heldByCheckpoint(d.graph, threadId, snap, current))) {
      proposal = { title: current.title, source: current.source ?? FALLBACK };
    }
    if (proposal && !decideTitle((await d.registry.readPin(threadId)) ?? current, proposal).accept) proposal = null;
    if (!proposal && !unsaved.length) return false;
    const again = await d.graph.getState(config);
    if (checkpointIdOf(again) !== checkpointIdOf(snap)) continue;
    const extra = unsaved.length ? { messages: unsaved } : undefined;
    if (proposal) await writeTitleToCheckpoint(d.graph, threadId, proposal.title, proposal.source, extra);
    else await d.graph.updateState(config, extra, titleWriterNode(d.graph));
    return true;
  }
  console.warn(`[runs] thread ${threadId}: gave up completing an interrupted run after ${MAX_ATTEMPTS} concurrent changes`);
  return false;
}
