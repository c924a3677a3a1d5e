#!/usr/bin/env node
// Threadline-only version of workload 6 (concurrent streaming runs), for quick before/after
// comparisons while working on lib/server/runs: same server settings and the same workload code
// as `npm run bench -- --only=stream`, without langgraph dev and without writing RESULTS.md.
//   node bench/stream-only.mjs [--levels=200] [--reps=3]
// PROFILE_DIR=/tmp/prof also writes a V8 CPU profile of the server (node --cpu-prof) there.
import { ensureBuild, startTarget } from "./lib/targets.mjs";
import { runConcurrency } from "./workloads/stream.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const levels = arg("levels", "200").split(",").map(Number);
const reps = Number(arg("reps", "3"));
const env = { OFFLINE_MODEL_DELAY_MS: "20", MAX_CONCURRENT_RUNS: "256" };
const nodeArgs = process.env.PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [];

ensureBuild();
const rows = [];
const rec = { value: (key, _target, v) => rows.push([key, v]) };
for (let r = 0; r < reps; r++) {
  const target = await startTarget("threadline", env, { nodeArgs });
  try {
    const cpu0 = target.cpuSeconds();
    await runConcurrency(target, { levels, capMs: 120_000 }, rec);
    // CPU the server used for the workload: comparable across runs even on a loaded machine.
    rows.push(["server CPU s", target.cpuSeconds() - cpu0]);
  } finally {
    await target.stop();
  }
}
const by = new Map();
for (const [k, v] of rows) by.set(k, [...(by.get(k) ?? []), v]);
for (const [k, vs] of by) console.log(`${k}: ${vs.map((v) => (typeof v === "number" ? v.toFixed(1) : v)).join(" / ")}`);
