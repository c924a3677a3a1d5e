import { nowIso } from "../store/clock";
import type { Queries } from "../store/queries";
import type { Registry } from "../store/registry";
import type { RunManager } from "./run-manager";

/** The run's input, unless it ran from an earlier checkpoint (an edit: its message is not the head's). */
const parseInput = (kwargs: string): unknown => {
  try {
    const k = JSON.parse(kwargs) as { input?: unknown; checkpoint?: { checkpoint_id?: unknown } | null };
    return k.checkpoint?.checkpoint_id ? null : (k.input ?? null);
  } catch {
    return null;
  }
};

/**
 * At start-up nothing is running, whatever the database says: the previous process died with
 * it. Pending/running runs become errors and their threads end `error`; a first run the crash
 * killed before it was titled gets its fallback title; every such run's message that no step
 * stored (the run going, those queued behind it, and those cancelled while queued whose message was
 * still owed) is written, in order; any pin a dead run or a failed settle owed the checkpoint is
 * written; a write the crash cut between checkpoint and registry (`sync_pending`) is re-synced.
 */
export async function repairAfterRestart(q: Queries, registry: Registry, runs: RunManager): Promise<void> {
  // Each thread's unfinished runs, oldest first: the one that was going, then those queued behind it.
  const toWrite = new Map<string, { input: unknown; owedRunId: string | null }[]>();
  const crashed = new Set<string>();
  for (const run of await q.unfinishedRuns()) {
    // A queued run cancelled before it started ended `interrupted` with its message still owed to
    // the thread (written once the run ahead ended, which the crash prevented): written here in its
    // place, its row left as it was.
    const owed = run.status !== "pending" && run.status !== "running";
    if (!owed) {
      await q.setRunStatus(run.run_id, "error", "The server restarted before this run finished", nowIso());
      crashed.add(run.thread_id);
    }
    toWrite.set(run.thread_id, [...(toWrite.get(run.thread_id) ?? []), { input: parseInput(run.kwargs), owedRunId: owed ? run.run_id : null }]);
  }
  for (const [threadId, inputs] of toWrite) {
    const exists = Boolean(await registry.find(threadId));
    // In order, so the messages the runs never stored land as they were sent.
    for (const { input, owedRunId } of inputs) {
      try {
        if (exists) await runs.titleInterrupted(threadId, input);
        // Each owed mark as soon as its message is in (a crash during repair must not write it twice).
        if (owedRunId) await q.clearRunInputOwed(owedRunId);
      } catch (err) {
        console.error("[repair] could not complete an interrupted run of thread", threadId, err);
      }
    }
  }
  const ids = new Set([...toWrite.keys(), ...(await q.threadsNeedingRepair()).map((r) => r.thread_id)]);
  for (const threadId of ids) {
    const row = await registry.find(threadId);
    if (!row) continue;
    if (row.pin_pending) console.warn(`[repair] thread ${threadId}: writing the rename its checkpoint was owed`);
    await runs.settle(threadId, async () => {
      const now = await registry.find(threadId);
      if (!now) return;
      if (crashed.has(threadId)) await registry.setStatus(threadId, "error", true);
      else if (now.status === "busy") {
        // The run row's end and the thread's status are written apart (settle reads the graph in
        // between); a crash there leaves the thread busy after a run that failed: it ends `error`.
        const [last] = await q.listRuns(threadId, null, 1, 0);
        const failed = last?.status === "error" || last?.status === "timeout";
        await registry.setStatus(threadId, failed ? "error" : registry.hasInterrupts(now) ? "interrupted" : "idle", true);
      }
      await registry.clearSyncPending(threadId);
    });
  }
}

/**
 * After repair, in the background: compare every idle thread's registry title with its
 * checkpoint and re-sync any that drifted. The comparison is first made in SQL (the checkpoint
 * the registry last mirrored vs the thread's latest, and the title columns vs that checkpoint's
 * title: queries.ts `driftCandidateIds`), so only threads where they differ have their
 * checkpoint read, not every thread at every start. Yields between threads so requests keep flowing.
 */
export async function resyncDriftedTitles(q: Queries, runs: RunManager): Promise<number> {
  let fixed = 0;
  for (const threadId of await q.driftCandidateIds()) {
    try {
      if (await runs.resyncIfDrifted(threadId)) {
        fixed++;
        console.warn(`[repair] thread ${threadId}: the list's title differed from the conversation's state; re-synced`);
      }
    } catch (err) {
      console.error("[repair] could not compare thread", threadId, err);
    }
    await new Promise((r) => setImmediate(r));
  }
  return fixed;
}
