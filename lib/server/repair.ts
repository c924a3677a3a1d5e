import { nowIso } from "./clock";
import type { Queries } from "./queries";
import type { Registry } from "./registry";
import type { RunManager } from "./run-manager";

/**
 * At start-up nothing is running, whatever the database says: the previous process died with
 * it. Pending/running runs become errors, busy threads go back to idle (or interrupted when
 * the checkpoint waits on an interrupt), and any pin a dead run owed the checkpoint is written.
 */
export async function repairAfterRestart(q: Queries, registry: Registry, runs: RunManager): Promise<void> {
  for (const run of q.unfinishedRuns()) {
    q.setRunStatus(run.run_id, "error", "The server restarted before this run finished", nowIso());
  }
  for (const row of q.threadsNeedingRepair()) {
    await runs.settle(row.thread_id, () => {
      const now = registry.find(row.thread_id);
      if (now && now.status === "busy") registry.setStatus(row.thread_id, registry.hasInterrupts(now) ? "interrupted" : "idle", true);
    });
  }
}
