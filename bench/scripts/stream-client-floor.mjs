#!/usr/bin/env node
// How close can any server get to workload 6's targets (first event p50 ≤ 100 ms, gap p99 ≤ 50 ms
// at 200 concurrent streams) as the bench measures them, on this machine? This records one real
// run's stream from Threadline (the bench's request, the built-in model at 20 ms a token, as in
// workload 6) and replays those exact bytes at their recorded pace from a server that does no
// work (replay-server.mjs, a process of its own), then runs the bench's own workload code
// (workloads/stream.mjs) against it and against Threadline, taking turns (which goes first
// alternates by round). What the replay server scores is what the SDK client, the connections and
// the machine cost before any server work, plus the recorded run's own pacing (its largest gap
// between two chunks is printed with it).
//
//   node bench/scripts/stream-client-floor.mjs [--levels=50,100,200] [--rounds=2] [--even] [--next]
//
// --even adds a second replay of the same chunks spread evenly over the recorded span (no jitter
// of the recorded run's own), taking its turn with the others. --next adds the same replay served
// by a Next app doing no work (bench/lib/bare-next.mjs, built and started as Threadline is): what
// `next start` alone costs these streams.
//
// Needs a build (`npx next build`; built when missing or older than HEAD).
import { sleep } from "../lib/stats.mjs";
import { evenPaced, record, startReplay } from "../lib/stream-replay.mjs";
import { ensureBuild, startTarget } from "../lib/targets.mjs";
import { runConcurrency } from "../workloads/stream.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const levels = arg("levels", "50,100,200").split(",").map(Number);
const rounds = Number(arg("rounds", "2"));

ensureBuild();
const tl = await startTarget("threadline", { OFFLINE_MODEL_DELAY_MS: "20", MAX_CONCURRENT_RUNS: "256" });
let replay;
let evenReplay;
let nextReplay;
try {
  // One recording for every replay, so they differ only in how it is served.
  const recording = await record(tl);
  replay = await startReplay(recording);
  console.log(`recorded run: ${replay.about}`);
  if (process.argv.includes("--even")) evenReplay = await startReplay(evenPaced(recording), { name: "replay, even pace (no work)" });
  if (process.argv.includes("--next")) nextReplay = await startReplay(recording, { viaNext: true });
  const targets = [replay, ...(evenReplay ? [evenReplay] : []), ...(nextReplay ? [nextReplay] : []), tl];
  const lines = [];
  for (let r = 1; r <= rounds; r++) {
    // Each round starts one further along, so no server always comes first or last.
    for (const target of targets.map((_, i) => targets[(i + r - 1) % targets.length])) {
      const got = new Map();
      const { errors } = await runConcurrency(target, { levels, capMs: 120_000 }, { value: (key, _target, v) => got.set(key, v) });
      for (const e of errors) console.log(`  ${target.name}: ${e}`);
      for (const c of levels) {
        const get = (what) => got.get(`conc.${c}.${what}`);
        lines.push(`| ${r} | ${target.name} | ${c} | ${get("errors")} | ${get("first").toFixed(0)} | ${get("gap").toFixed(1)} | ${get("rss").toFixed(0)} |`);
      }
      await sleep(1_000);
    }
  }
  console.log("\n| round | server | streams | errors | first event p50 ms | gap p99 ms | server RSS MB |");
  console.log("|---|---|---|---|---|---|---|");
  for (const line of lines) console.log(line);
} finally {
  await replay?.stop();
  await evenReplay?.stop();
  await nextReplay?.stop();
  await tl.stop();
}
process.exit(0);
