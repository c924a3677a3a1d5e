import { setMaxListeners } from "node:events";
import { p50, p99, sleep } from "../lib/stats.mjs";
import { userClient } from "../lib/user-client.mjs";

/** Workload 6's request for run `i` of `c`: one human message, the modes the web app streams. */
export const concurrentRun = (i, c, signal) => ({
  input: { messages: [{ role: "human", content: `Concurrent run ${i} of ${c}` }] },
  streamMode: ["values", "messages-tuple"],
  signal,
});

/**
 * Workload 6: `c` streaming runs started at once, one thread each, each from a user of its own
 * (its own SDK Client and connection, user-client.mjs). Per run: time to its first event, gaps
 * between consecutive events (and those gaps without each run's first one); errors; the server's
 * peak RSS (process tree).
 */
export async function runConcurrency(target, { levels, capMs }, rec) {
  if (!target.apiUrl) throw new Error(`${target.name}: no apiUrl for its users' clients`);
  const errors = [];
  for (const c of levels) {
    const threads = [];
    for (let i = 0; i < c; i++) threads.push((await target.client.threads.create()).thread_id);
    let peak = target.rssMb();
    const sampler = setInterval(() => (peak = Math.max(peak, target.rssMb())), 250);
    const abort = new AbortController();
    setMaxListeners(c + 10, abort.signal); // every run's request listens to it
    const timer = setTimeout(() => abort.abort(), capMs);
    const first = [];
    const gaps = [];
    // The gaps after each run's second event: the first gap (its `metadata` → its first `values`)
    // holds the run's wait to start, the rest its streaming pace.
    const laterGaps = [];
    let failed = 0;
    let unfinished = 0;
    const started = performance.now();
    await Promise.all(
      threads.map(async (tid, i) => {
        const user = userClient(target.apiUrl);
        const t0 = performance.now();
        let last;
        let gapsSeen = 0;
        try {
          const stream = user.client.runs.stream(tid, "agent", concurrentRun(i, c, abort.signal));
          for await (const part of stream) {
            const now = performance.now();
            if (last === undefined) first.push(now - t0);
            else {
              if (gapsSeen++ > 0) laterGaps.push(now - last);
              gaps.push(now - last);
            }
            last = now;
            if (part.event === "error") {
              failed++;
              errors.push(`run ${i}/${c}: ${JSON.stringify(part.data).slice(0, 200)}`);
            }
          }
        } catch (err) {
          if (abort.signal.aborted) unfinished++;
          else {
            failed++;
            errors.push(`run ${i}/${c}: ${err.message}`);
          }
        } finally {
          user.close();
        }
      }),
    );
    clearTimeout(timer);
    clearInterval(sampler);
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    const note = unfinished ? `${unfinished} unfinished at the ${capMs / 1000}s cap` : `all done in ${secs}s`;
    rec.value(`conc.${c}.errors`, target, failed, note);
    rec.value(`conc.${c}.first`, target, p50(first));
    rec.value(`conc.${c}.gap`, target, p99(gaps));
    rec.value(`conc.${c}.gapLater`, target, p99(laterGaps));
    rec.value(`conc.${c}.rss`, target, peak);
    console.log(`  ${target.name}: ${c} streams, ${failed} errors, first p50 ${p50(first).toFixed(0)} ms, gap p99 ${p99(gaps).toFixed(0)} ms (after the first gap ${p99(laterGaps).toFixed(0)} ms), ${note}`);
    await sleep(500);
  }
  return { errors };
}
