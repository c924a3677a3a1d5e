import type { BaseCheckpointSaver } from "@langchain/langgraph";

type Saver = Pick<BaseCheckpointSaver, "put" | "putWrites">;

/** Writes of one thread: those in flight and when the last one started. */
interface ThreadWrites {
  inflight: Set<Promise<unknown>>;
  lastStartedAt: number;
}

const QUIET_MS = 40;
const MAX_WAIT_MS = 2_000;

/**
 * An aborted run's stream throws at once, but LangGraph's loop goes on in the background to
 * finish its step and save that checkpoint, a few milliseconds later. A rollback that deletes
 * before then leaves an orphan checkpoint (the run's message, half-erased); the interrupted-run
 * title would read a state about to move. LangGraph gives no handle on that loop, so the saver's
 * writes are watched per thread: `quiet(threadId)` resolves once none is in flight and none has
 * started for a short while (at most 2 s).
 *
 * A starved process can take longer than that window to reach its next save, so waiting alone
 * cannot promise a rollback that stays erased. `fence(runId)` does: from then on the run's own
 * saves (its run id is in the config's metadata) are dropped, so whatever the aborted loop saves
 * later never lands. Only a run being rolled back is fenced; it writes nothing that must stay.
 */
export interface CheckpointWrites {
  quiet(threadId: string): Promise<void>;
  fence(runId: string): void;
}

const FENCE_MS = 15 * 60_000;

export function watchCheckpointWrites(saver: Saver): CheckpointWrites {
  const threads = new Map<string, ThreadWrites>();
  const fenced = new Set<string>();
  for (const method of ["put", "putWrites"] as const) {
    const original = (saver[method] as (...args: unknown[]) => Promise<unknown>).bind(saver);
    (saver as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const config = args[0] as { configurable?: { thread_id?: string }; metadata?: { run_id?: unknown } } | undefined;
      const runId = config?.metadata?.run_id;
      if (typeof runId === "string" && fenced.has(runId)) {
        // What the loop would get back from a save: the config pointing at the new checkpoint.
        const id = method === "put" ? (args[1] as { id?: string } | undefined)?.id : undefined;
        return Promise.resolve(method === "put" ? { ...config, configurable: { ...config?.configurable, checkpoint_id: id } } : undefined);
      }
      const threadId = config?.configurable?.thread_id;
      const p = original(...args);
      if (!threadId) return p;
      let t = threads.get(threadId);
      if (!t) threads.set(threadId, (t = { inflight: new Set(), lastStartedAt: 0 }));
      const writes = t;
      writes.lastStartedAt = Date.now();
      writes.inflight.add(p);
      const done = () => {
        writes.inflight.delete(p);
        // Forget idle threads after the quiet window, so the map stays as small as the live set.
        setTimeout(() => {
          if (!writes.inflight.size && Date.now() - writes.lastStartedAt >= QUIET_MS && threads.get(threadId) === writes) threads.delete(threadId);
        }, QUIET_MS).unref?.();
      };
      p.then(done, done);
      return p;
    };
  }
  const fence = (runId: string) => {
    fenced.add(runId);
    setTimeout(() => fenced.delete(runId), FENCE_MS).unref?.();
  };
  const quiet = async (threadId: string) => {
    const deadline = Date.now() + MAX_WAIT_MS;
    for (;;) {
      const t = threads.get(threadId);
      if (t?.inflight.size) await Promise.race([Promise.allSettled([...t.inflight]), sleep(Math.max(0, deadline - Date.now()))]);
      const idleFor = Date.now() - (threads.get(threadId)?.lastStartedAt ?? 0);
      if (idleFor >= QUIET_MS || Date.now() >= deadline) return;
      await sleep(QUIET_MS - idleFor);
    }
  };
  return { quiet, fence };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());
