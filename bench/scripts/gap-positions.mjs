#!/usr/bin/env node
// What workload 6's inter-event gap p99 is made of: the same runs as the bench (workloads/stream.mjs's
// request, a user and connection each, the built-in model at 20 ms a token, MAX_CONCURRENT_RUNS=256),
// each gap kept with its place in its stream. Prints, per level, the gap p99 over every gap and
// without each run's first gap (`metadata` → its first `values`: the run's wait to start), that first
// gap's p50 / p99, and which gaps (by place and events) are at or over the p99.
//
//   node bench/scripts/gap-positions.mjs [--levels=20,50,200]
//
// Needs a build (`npx next build`; built when missing or older than HEAD).
import { p50, p99 } from "../lib/stats.mjs";
import { ensureBuild, startTarget } from "../lib/targets.mjs";
import { userClient } from "../lib/user-client.mjs";
import { concurrentRun } from "../workloads/stream.mjs";

const levels = (process.argv.find((a) => a.startsWith("--levels="))?.slice(9) ?? "20,50,200").split(",").map(Number);
ensureBuild();
const tl = await startTarget("threadline", { OFFLINE_MODEL_DELAY_MS: "20", MAX_CONCURRENT_RUNS: "256" });
try {
  // Three runs first, as the bench's recording does: the server is warm.
  for (let w = 0; w < 3; w++) {
    const { thread_id } = await tl.client.threads.create();
    for await (const part of tl.client.runs.stream(thread_id, "agent", concurrentRun(0, 1))) if (part.event === "error") throw new Error(JSON.stringify(part.data));
  }
  for (const c of levels) {
    const threads = [];
    for (let i = 0; i < c; i++) threads.push((await tl.client.threads.create()).thread_id);
    const gaps = []; // { place, ms, between }
    await Promise.all(
      threads.map(async (tid, i) => {
        const user = userClient(tl.apiUrl);
        try {
          let last;
          let lastEvent;
          let place = 0;
          for await (const part of user.client.runs.stream(tid, "agent", concurrentRun(i, c))) {
            const now = performance.now();
            if (last !== undefined) gaps.push({ place: place++, ms: now - last, between: `${lastEvent} → ${part.event}` });
            last = now;
            lastEvent = part.event;
          }
        } finally {
          user.close();
        }
      }),
    );
    const all = p99(gaps.map((g) => g.ms));
    const firstGaps = gaps.filter((g) => g.place === 0).map((g) => g.ms);
    const later = p99(gaps.filter((g) => g.place > 0).map((g) => g.ms));
    const over = new Map();
    for (const g of gaps.filter((x) => x.ms >= all)) {
      const key = `gap ${g.place + 1} (${g.between})`;
      over.set(key, (over.get(key) ?? 0) + 1);
    }
    console.log(`${c} streams, ${gaps.length} gaps: p99 ${all.toFixed(0)} ms; without each run's first gap ${later.toFixed(0)} ms; the first gaps p50 ${p50(firstGaps).toFixed(0)} / p99 ${p99(firstGaps).toFixed(0)} ms`);
    console.log(`  at or over the p99: ${[...over].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} × ${k}`).join(", ")}`);
  }
} finally {
  await tl.stop();
}
process.exit(0);
