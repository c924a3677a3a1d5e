import { decideTitle, fallbackTitle, firstUserText, titleFactOf, type TitleConfig, type TitleSource } from "@/lib/title";
import { threadConfig, writeTitleToCheckpoint, type AgentGraph } from "./graph";
import type { Registry } from "./registry";

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

const checkpointIdOf = (snap: { config?: { configurable?: Record<string, unknown> } }) => snap.config?.configurable?.checkpoint_id ?? null;

/**
 * A first run that ended without a title (cancel, error, timeout, crash, or TITLE_INSTANT off
 * and no answer yet) would leave the thread untitled forever: once a second message is sent no
 * automatic title is due. This writes the fallback title from the user's first message.
 *
 * Stale-snapshot safe: read the latest checkpoint, stop if it has a title, compute, re-read, and
 * start over (at most 3 times) if another writer moved the thread meanwhile; the one precedence
 * rule decides, against the registry's pin when a rename is owed, so it never replaces a pin.
 *
 * `input` is the run's input. When the run was stopped before its first step stored the user's
 * message, the message is written together with the title, so what the user wrote is kept.
 * Returns whether a title was written.
 */
export async function titleInterruptedThread(d: InterruptedTitleDeps, threadId: string, input: unknown): Promise<boolean> {
  if (!d.titleConfig.enabled) return false;
  const config = threadConfig(threadId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const snap = await d.graph.getState(config);
    const current = titleFactOf(snap.values);
    if (current.title?.trim()) return false;
    const stored = firstUserText(messagesOf(snap.values));
    const unsaved = stored == null ? messagesOf(input) : [];
    const userText = stored ?? firstUserText(unsaved);
    if (userText == null) return false; // nothing the user wrote reached this thread
    const proposal = { title: fallbackTitle(userText, d.titleConfig), source: FALLBACK };
    const pin = d.registry.readPin(threadId);
    if (!decideTitle(pin ?? current, proposal).accept) return false;
    const again = await d.graph.getState(config);
    if (checkpointIdOf(again) !== checkpointIdOf(snap)) continue;
    await writeTitleToCheckpoint(d.graph, threadId, proposal.title, proposal.source, unsaved.length ? { messages: unsaved } : undefined);
    return true;
  }
  console.warn(`[runs] thread ${threadId}: gave up titling an interrupted run after ${MAX_ATTEMPTS} concurrent changes`);
  return false;
}
