import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver, StateSnapshot } from "@langchain/langgraph";
import { titleFactOf, titleLeftBehind, type TitleFact, type TitleSource } from "@/lib/title";
import { TITLE_WRITER_NODE } from "@/lib/agent/title-middleware";
import { toJsonValue } from "./store/serde";

/**
 * The slice of the compiled agent graph the server uses. Typed loosely on purpose: the agent's
 * full generic type is huge and the server only moves JSON in and out of it.
 */
export interface AgentGraph {
  getState(config: RunnableConfig, options?: { subgraphs?: boolean }): Promise<StateSnapshot>;
  getStateHistory(config: RunnableConfig, options?: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> }): AsyncIterableIterator<StateSnapshot>;
  updateState(config: RunnableConfig, values: unknown, asNode?: string): Promise<RunnableConfig>;
  stream(input: unknown, options: Record<string, unknown>): Promise<AsyncIterable<unknown>>;
  nodes: Record<string, unknown>;
  getGraphAsync?(config?: RunnableConfig): Promise<{ toJSON(): unknown }>;
}

export const threadConfig = (threadId: string, checkpoint?: { checkpoint_id?: string; checkpoint_ns?: string }): RunnableConfig => ({
  configurable: {
    thread_id: threadId,
    ...(checkpoint?.checkpoint_ns ? { checkpoint_ns: checkpoint.checkpoint_ns } : {}),
    ...(checkpoint?.checkpoint_id ? { checkpoint_id: checkpoint.checkpoint_id } : {}),
  },
});

/**
 * Title writes (rename, pin, regenerate) are attributed to the title middleware's after-model
 * node: its out-edge ends the graph when there is no tool call, so the update leaves `next`
 * empty even on a thread that has never run (the default `__start__` would leave a pending step).
 */
export function titleWriterNode(graph: AgentGraph): string | undefined {
  return TITLE_WRITER_NODE in graph.nodes ? TITLE_WRITER_NODE : undefined;
}

/**
 * A title write on the thread's latest checkpoint. When a failed or interrupted run left a step
 * pending (`next` not empty), the write is attributed to the node that ran last, so the pending
 * step survives and a retry with `input: null` still resumes it; otherwise to the title writer.
 * `extra` adds state keys to the same checkpoint (an interrupted first run's unsaved message).
 */
export async function writeTitleToCheckpoint(graph: AgentGraph, threadId: string, title: string, source: TitleSource, extra?: Record<string, unknown>) {
  const config = threadConfig(threadId);
  const values = { ...extra, title, title_source: source };
  if (!extra) {
    const snap = await graph.getState(config);
    if (snap.next.length && snap.next[0] !== "__start__") {
      try {
        return await graph.updateState(config, values);
      } catch {
        // LangGraph could not tell which node ran last: fall through to the title writer.
      }
    }
  }
  return graph.updateState(config, values, titleWriterNode(graph));
}

/** The title a branch's head should be given (lib/title's titleLeftBehind), or null. */
export function branchTitleToCarry(registered: TitleFact | null | undefined, head: StateSnapshot) {
  return titleLeftBehind(registered, titleFactOf(head.values));
}

/** Whether `ref` names a stored checkpoint of the thread (no id names the latest, which needs no check). */
export async function checkpointExists(checkpointer: BaseCheckpointSaver, threadId: string, ref: { checkpoint_id?: string; checkpoint_ns?: string } | undefined): Promise<boolean> {
  return !ref?.checkpoint_id || Boolean(await checkpointer.getTuple(threadConfig(threadId, ref)));
}

export function checkpointJson(config: RunnableConfig | undefined) {
  const c = config?.configurable;
  if (!c?.checkpoint_id) return null;
  return {
    thread_id: c.thread_id as string,
    checkpoint_ns: (c.checkpoint_ns as string | undefined) ?? "",
    checkpoint_id: c.checkpoint_id as string,
    checkpoint_map: (c.checkpoint_map as Record<string, unknown> | undefined) ?? null,
  };
}

/** StateSnapshot → the Agent Protocol ThreadState the SDK's getState/getHistory return. */
export function stateJson(snap: StateSnapshot) {
  const tasks = snap.tasks.map((t) => ({
    id: t.id,
    name: t.name,
    path: toJsonValue(t.path) ?? null,
    error: t.error == null ? null : String((t.error as { message?: unknown }).message ?? t.error),
    interrupts: toJsonValue(t.interrupts) ?? [],
    checkpoint: null,
    state: null,
    result: toJsonValue(t.result) ?? null,
  }));
  return {
    values: toJsonValue(snap.values) ?? {},
    next: snap.next,
    tasks,
    metadata: toJsonValue(snap.metadata) ?? {},
    created_at: snap.createdAt ?? null,
    checkpoint: checkpointJson(snap.config),
    parent_checkpoint: checkpointJson(snap.parentConfig),
    interrupts: tasks.flatMap((t) => t.interrupts as unknown[]),
  };
}

/** Interrupts keyed by task id, as a thread object carries them. */
export function interruptsOf(snap: StateSnapshot): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of snap.tasks) if (t.interrupts?.length) out[t.id] = toJsonValue(t.interrupts) as unknown[];
  return out;
}
