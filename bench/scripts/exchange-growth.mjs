#!/usr/bin/env node
// Workload 1a's batches (create + runs.wait, the scripted model answering at once) at N=500 and
// after growing N with 1b's loop, with none of the bench's other workloads in between: does the
// exchange rate fall with N? Prints threads/s and the server's CPU ms per thread, two batches of
// 500 at each N.
//
//   node bench/scripts/exchange-growth.mjs [10000,30000]
//
// Needs a build (`npx next build`).
import { startScriptedLLM } from "../lib/scripted-llm.mjs";
import { ensureBuild, startTarget } from "../lib/targets.mjs";
import { batchesOn, exchangeThread, seedThread } from "../workloads/scale.mjs";

const steps = (process.argv[2] ?? "10000,30000").split(",").map(Number);
ensureBuild();
const llm = await startScriptedLLM(() => ({ firstTokenMs: 0, tokenMs: 0 }));
const target = await startTarget("threadline", { CHAT_MODEL: "openai:bench-chat", OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: llm.baseURL, MAX_CONCURRENT_RUNS: "64" });
const batches = batchesOn(target);
const batch = (k, job) => batches.run(k, job);
try {
  await batch(500, exchangeThread);
  console.log("1a at N=500", JSON.stringify(await batch(500, exchangeThread)), JSON.stringify(await batch(500, exchangeThread)));
  for (const n of steps) {
    const grow = await batch(n - batches.made, seedThread);
    console.log(`1b to ${n}`, JSON.stringify(grow));
    console.log(`1a at N=${batches.made}`, JSON.stringify(await batch(500, exchangeThread)), JSON.stringify(await batch(500, exchangeThread)));
  }
} finally {
  await target.stop();
  await llm.close?.();
  process.exit(0);
}
