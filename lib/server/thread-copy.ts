import { randomUUID } from "node:crypto";
import type { CheckpointTuple } from "@langchain/langgraph";
import { decideTitle, titleFactOf } from "@/lib/title";
import type { Api } from "./api";
import { nowIso } from "./clock";
import { threadConfig, writeTitleToCheckpoint } from "./graph";
import type { ThreadRow } from "./queries";

/**
 * Copies a thread: every checkpoint (so history and branches survive) through the saver's own
 * API, then the registry row. The copy keeps the title and its source; a pin that the source
 * still owes its checkpoint (rename during a run) is applied to the copy through decideTitle.
 */
export async function copyThread(api: Api, sourceId: string, metadata?: Record<string, unknown>): Promise<ThreadRow> {
  const source = api.registry.get(sourceId);
  const newId = randomUUID();
  const tuples: CheckpointTuple[] = [];
  for await (const t of api.checkpointer.list(threadConfig(sourceId))) tuples.push(t);
  // Oldest first, so each checkpoint's parent exists before it does.
  tuples.sort((a, b) => String(a.checkpoint.id).localeCompare(String(b.checkpoint.id)));
  for (const t of tuples) {
    const ns = (t.config.configurable?.checkpoint_ns as string | undefined) ?? "";
    const parentId = t.parentConfig?.configurable?.checkpoint_id as string | undefined;
    const metadata = { ...t.metadata, ...(t.metadata && "thread_id" in t.metadata ? { thread_id: newId } : {}) };
    await api.checkpointer.put(
      { configurable: { thread_id: newId, checkpoint_ns: ns, ...(parentId ? { checkpoint_id: parentId } : {}) } },
      t.checkpoint,
      metadata as never,
      {},
    );
    const byTask = new Map<string, [string, unknown][]>();
    for (const [taskId, channel, value] of t.pendingWrites ?? []) {
      byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, value]]);
    }
    for (const [taskId, writes] of byTask) {
      await api.checkpointer.putWrites({ configurable: { thread_id: newId, checkpoint_ns: ns, checkpoint_id: t.checkpoint.id } }, writes, taskId);
    }
  }

  api.q.transaction(() => {
    api.q.insertThread({
      thread_id: newId,
      at: nowIso(),
      metadata: metadata ? JSON.stringify(metadata) : source.metadata,
      values_json: source.values_json,
      title: source.title,
      title_source: source.title_source,
    });
    api.q.copyRevisions(newId, sourceId);
  });

  const pin = source.pin_pending ? api.registry.titleOf(source) : null;
  if (tuples.length || pin) {
    let snap = await api.graph.getState(threadConfig(newId));
    if (pin?.title && pin.source && decideTitle(titleFactOf(snap.values), { title: pin.title, source: pin.source }).accept) {
      await writeTitleToCheckpoint(api.graph, newId, pin.title, pin.source);
      snap = await api.graph.getState(threadConfig(newId));
    }
    api.registry.mirrorState(newId, snap);
  }
  return api.registry.get(newId);
}
