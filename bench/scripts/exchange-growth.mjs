#!/usr/bin/env node
// Workload 1a's batches (create + runs.wait, the scripted model answering at once) at N=500 and
// after growing N with 1b's loop, with none of the bench's other workloads in between: does the
// exchange rate fall with N? Prints threads/s and the server's CPU ms per thread, two batches of
// 500 at each N.
//
//   node bench/scripts/exchange-growth.mjs [10000,40000]
//
// Needs a build (`npx next build`).
import { pool } from "../lib/stats.mjs";
import { startScriptedLLM } from "../lib/scripted-llm.mjs";
import { ensureBuild, startTarget, treeCpuSeconds } from "../lib/targets.mjs";
import { label } from "../workloads/scale.mjs";

const steps = (process.argv[2] ?? "10000,30000").split(",").map(Number);
ensureBuild();
const llm = await startScriptedLLM(() => ({ firstTokenMs: 0, tokenMs: 0 }));
const target = await startTarget("threadline", { CHAT_MODEL: "openai:bench-chat", OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: llm.baseURL, MAX_CONCURRENT_RUNS: "64" });
let made = 0;
async function batch(k, job) {
  let next = made;
  const cpu0 = treeCpuSeconds(target.pid);
  const t0 = performance.now();
  await pool(k, 8, async () => job(next++));
  made = next;
  return { perSec: +(k / ((performance.now() - t0) / 1000)).toFixed(1), serverCpuMsEach: +(((treeCpuSeconds(target.pid) - cpu0) * 1000) / k).toFixed(1) };
}
const exchange = async (i) => {
  const t = await target.client.threads.create({ graphId: "agent", metadata: { bench: "exchange" } });
  await target.client.runs.wait(t.thread_id, "agent", { input: { messages: [{ role: "human", content: `Question ${label(i)} about sourdough baking` }] } });
};
const seed = async (i) => {
  const t = await target.client.threads.create({ graphId: "agent", metadata: { bench: "seed" } });
  await target.client.threads.updateState(t.thread_id, { values: { title: `Question ${label(i)} about sourdough baking` } });
};
try {
  await batch(500, exchange);
  console.log("1a at N=500", JSON.stringify(await batch(500, exchange)), JSON.stringify(await batch(500, exchange)));
  for (const n of steps) {
    const grow = await batch(n - made, seed);
    console.log(`1b to ${n}`, JSON.stringify(grow));
    console.log(`1a at N=${made}`, JSON.stringify(await batch(500, exchange)), JSON.stringify(await batch(500, exchange)));
  }
} finally {
  await target.stop();
  await llm.close?.();
  process.exit(0);
}
