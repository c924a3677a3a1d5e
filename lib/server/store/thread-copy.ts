import { randomUUID } from "node:crypto";
import type { Api } from "../api";
import { nowIso } from "./clock";
import type { ThreadRow } from "./queries";

/**
 * Copies a thread: every checkpoint and pending write (so history and branches survive) and the
 * registry row, in one transaction, so a crash leaves either no copy or a whole one. The
 * copy keeps the title and its source; a pin the source still owes its checkpoint (rename during
 * a run) is owed by the copy too, and settle writes it through decideTitle (restart repair does,
 * if the process dies first).
 */
export async function copyThread(api: Api, sourceId: string, metadata?: Record<string, unknown>): Promise<ThreadRow> {
  const newId = randomUUID();
  await api.q.transaction(async () => {
    const source = await api.registry.get(sourceId);
    await api.q.copyCheckpoints(sourceId, newId);
    await api.q.insertThread({
      thread_id: newId,
      at: nowIso(),
      metadata: metadata ? JSON.stringify(metadata) : source.metadata,
      values_json: source.values_json,
      title: source.title,
      title_source: source.title_source,
      pin_pending: source.pin_pending,
    });
    await api.q.copyRevisions(newId, sourceId);
  });
  await api.runs.settle(newId, () => {});
  return api.registry.get(newId);
}
