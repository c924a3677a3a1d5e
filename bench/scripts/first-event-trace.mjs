#!/usr/bin/env node
// Where workload 6's first event goes (200 streams at once against a p50 ≤ 100 ms): the same runs
// as the bench (workloads/stream.mjs's request and users, each with a connection of its own, the
// built-in model at 20 ms a token, MAX_CONCURRENT_RUNS=256), each split into stretches with
// bench/lib/http-trace.mjs preloaded into the server:
//   sent → accepted the client's fetch until the server accepts its connection (for a connection
//                   kept alive from an earlier request: until the request is parsed)
//   accepted → parsed  until Node's HTTP server has read and parsed the request
//   parsed → wrote  until the server first writes its answer (Next, our handler, the run's row)
//   wrote → seen    until the SDK client yields the first event
// Percentiles p10 / p50 / p90 over the runs of each level, a fresh server per level and round; then how
// late the server's event loop ran while the runs were being answered (from the first send to the
// last first event): the median and the largest lag of its 250 ms stretches.
//
//   node bench/scripts/first-event-trace.mjs [--levels=50,200] [--rounds=2] [--shared | --shared-uncapped]
//
// --shared sends every run through one SDK Client over Node's fetch, as workload 6 did before
// bench/lib/user-client.mjs (the SDK keeps at most 4 requests in flight: its AsyncCaller's default
// maxConcurrency; a stream's slot is freed once its answer's headers arrive); --shared-uncapped
// lifts the 4.
//
// Needs a build (`npx next build`; built when missing or older than HEAD).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Client } from "@langchain/langgraph-sdk";
import { quantile } from "../lib/stats.mjs";
import { ensureBuild, startTarget } from "../lib/targets.mjs";
import { userClient } from "../lib/user-client.mjs";
import { concurrentRun } from "../workloads/stream.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const levels = arg("levels", "50,200").split(",").map(Number);
const rounds = Number(arg("rounds", "2"));
const shared = process.argv.includes("--shared") ? "capped" : process.argv.includes("--shared-uncapped") ? "uncapped" : null;
const preload = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "lib", "http-trace.mjs");
const now = () => performance.timeOrigin + performance.now();

ensureBuild();
for (let round = 1; round <= rounds; round++) {
  for (const c of levels) {
    const traceFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "first-event-trace-")), "trace.txt");
    const tl = await startTarget("threadline", { OFFLINE_MODEL_DELAY_MS: "20", MAX_CONCURRENT_RUNS: "256", HTTP_TRACE_FILE: traceFile }, { nodeArgs: ["--import", preload] });
    try {
      const threads = [];
      for (let i = 0; i < c; i++) threads.push((await tl.client.threads.create()).thread_id);
      // One run first, untimed: the server's code is loaded and warm, as in the bench.
      const warm = (await tl.client.threads.create()).thread_id;
      for await (const part of tl.client.runs.stream(warm, "agent", concurrentRun(0, 1))) if (part.event === "error") throw new Error("the warm-up run failed");
      const client = new Map();
      const sharedClient = shared === "uncapped" ? new Client({ apiUrl: tl.apiUrl, callerOptions: { maxRetries: 0, maxConcurrency: Infinity } }) : tl.client;
      const clientLag = monitorEventLoopDelay({ resolution: 5 });
      clientLag.enable();
      const started = now();
      await Promise.all(
        threads.map(async (tid, i) => {
          const user = shared ? null : userClient(tl.apiUrl);
          const sent = now();
          let seen;
          try {
            for await (const part of (user?.client ?? sharedClient).runs.stream(tid, "agent", concurrentRun(i, c))) {
              seen ??= now();
              if (part.event === "error") throw new Error(`run ${i} of ${c} failed: ${JSON.stringify(part.data)}`);
            }
          } finally {
            user?.close();
          }
          client.set(tid, { sent, seen });
        }),
      );
      clientLag.disable();
      const lines = fs.readFileSync(traceFile, "utf8").trim().split("\n").map((line) => line.split(" "));
      const server = new Map(lines.filter(([tag]) => tag !== "loop").map(([tid, accepted, parsed, wrote]) => [tid, { accepted: Number(accepted), parsed: Number(parsed), wrote: Number(wrote) }]));
      const runs = threads.map((tid) => ({ ...client.get(tid), ...server.get(tid) })).filter((r) => r.parsed && r.seen);
      if (runs.length !== c) throw new Error(`traced ${runs.length} of ${c} runs`);
      const show = (label, f) => console.log(`  ${label.padEnd(18)} ${[0.1, 0.5, 0.9].map((p) => `${quantile(runs.map(f), p).toFixed(0)}`.padStart(6)).join(" /")} ms`);
      console.log(`round ${round}, ${c} streams${shared ? `, one shared SDK Client (${shared})` : ", a connection per user"} (p10 / p50 / p90):`);
      show("sent → accepted", (r) => r.accepted - r.sent);
      show("accepted → parsed", (r) => r.parsed - r.accepted);
      show("parsed → wrote", (r) => r.wrote - r.parsed);
      show("wrote → seen", (r) => r.seen - r.wrote);
      show("first event", (r) => r.seen - r.sent);
      const answered = Math.max(...runs.map((r) => r.seen));
      const lag = lines.filter(([tag, at]) => tag === "loop" && Number(at) >= started && Number(at) <= answered + 250);
      if (lag.length) console.log(`  event loop lag while answering: median of 250 ms stretches ${quantile(lag.map((l) => Number(l[2])), 0.5).toFixed(0)} ms, largest ${Math.max(...lag.map((l) => Number(l[3]))).toFixed(0)} ms (${lag.length} stretches)`);
      console.log(`  the client's own event loop over the level: lag p50 ${(clientLag.percentile(50) / 1e6).toFixed(0)} ms, p99 ${(clientLag.percentile(99) / 1e6).toFixed(0)} ms, largest ${(clientLag.max / 1e6).toFixed(0)} ms`);
    } finally {
      await tl.stop();
      fs.rmSync(path.dirname(traceFile), { recursive: true, force: true });
    }
  }
}
process.exit(0);
