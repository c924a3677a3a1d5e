#!/usr/bin/env node
// Does workload 7 (the sidebar in Chromium) leave the server slower at making threads? Makes N
// threads (1b's loop), then two batches of M before and two after the browser workload, each with
// threads/s and the server's CPU ms per thread, and the server's idle CPU before and after.
//
//   node bench/scripts/after-browser.mjs [N=10000] [M=3000]
//
// Needs a build (`npx next build`) and Debian's chromium.
import { sleep } from "../lib/stats.mjs";
import { ensureBuild, startTarget, treeCpuSeconds } from "../lib/targets.mjs";
import { batchesOn, label, seedThread } from "../workloads/scale.mjs";
import { runBrowser } from "../workloads/browser.mjs";

const N0 = Number(process.argv[2] ?? 10000);
const M = Number(process.argv[3] ?? 3000);
ensureBuild();
const target = await startTarget("threadline", { MAX_CONCURRENT_RUNS: "64" });
const batches = batchesOn(target);
const makeThreads = (k) => batches.run(k, seedThread);
async function idleCpu() {
  const c0 = treeCpuSeconds(target.pid);
  await sleep(5000);
  return +((treeCpuSeconds(target.pid) - c0) / 5).toFixed(3);
}
try {
  await makeThreads(N0);
  console.log("idle cpu/s", await idleCpu());
  console.log("before browser", JSON.stringify(await makeThreads(M)), JSON.stringify(await makeThreads(M)));
  const rec = { value: (...a) => console.log("  rec", a[0], typeof a[2] === "number" ? a[2].toFixed(1) : a[2]) };
  await runBrowser(target, { total: batches.made, oldestTitle: `Question ${label(0)}`, capMs: 90_000, navigations: 5 }, rec);
  console.log("idle cpu/s after browser", await idleCpu());
  console.log("after browser", JSON.stringify(await makeThreads(M)), JSON.stringify(await makeThreads(M)));
} finally {
  await target.stop();
}
