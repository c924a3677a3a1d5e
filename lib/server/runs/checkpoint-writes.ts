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
 */
export function watchCheckpointWrites(saver: Saver): (threadId: string) => Promise<void> {
  const threads = new Map<string, ThreadWrites>();
  for (const method of ["put", "putWrites"] as const) {
    const original = (saver[method] as (...args: unknown[]) => Promise<unknown>).bind(saver);
    (saver as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const threadId = (args[0] as { configurable?: { thread_id?: string } } | undefined)?.configurable?.thread_id;
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
  return async (threadId) => {
    const deadline = Date.now() + MAX_WAIT_MS;
    for (;;) {
      const t = threads.get(threadId);
      if (t?.inflight.size) await Promise.race([Promise.allSettled([...t.inflight]), sleep(Math.max(0, deadline - Date.now()))]);
      const idleFor = Date.now() - (threads.get(threadId)?.lastStartedAt ?? 0);
      if (idleFor >= QUIET_MS || Date.now() >= deadline) return;
      await sleep(QUIET_MS - idleFor);
    }
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());
