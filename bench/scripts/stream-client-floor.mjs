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
//   node bench/scripts/stream-client-floor.mjs [--levels=50,100,200] [--rounds=2]
//
// Needs a build (`npx next build`; built when missing or older than HEAD).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { sleep } from "../lib/stats.mjs";
import { ensureBuild, root, startTarget, treeRssMb } from "../lib/targets.mjs";
import { concurrentRun, runConcurrency } from "../workloads/stream.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const levels = arg("levels", "50,100,200").split(",").map(Number);
const rounds = Number(arg("rounds", "2"));
// Per-hop headers the replay server's own connection sets itself.
const HOP = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "date"]);

/** One run of workload 6's request against Threadline, its stream's chunks with their times. */
async function record(tl) {
  let thread;
  let headers;
  let chunks;
  let endAt;
  const client = new Client({
    apiUrl: tl.apiUrl,
    callerOptions: {
      maxRetries: 0,
      fetch: async (url, init) => {
        const t0 = performance.now();
        const res = await fetch(url, init);
        if (String(url).endsWith("/threads")) thread = await res.clone().json();
        if (!String(url).endsWith("/runs/stream")) return res;
        headers = Object.fromEntries([...res.headers].filter(([k]) => !HOP.has(k)));
        chunks = [];
        const text = new TextDecoder();
        const body = res.body.pipeThrough(
          new TransformStream({
            transform(chunk, out) {
              chunks.push({ at: performance.now() - t0, text: text.decode(chunk, { stream: true }) });
              out.enqueue(chunk);
            },
            flush() {
              endAt = performance.now() - t0;
            },
          }),
        );
        return new Response(body, { status: res.status, headers: res.headers });
      },
    },
  });
  // The last of three runs: the first ones warm the server up.
  for (let i = 0; i < 3; i++) {
    const { thread_id } = await client.threads.create();
    const stream = client.runs.stream(thread_id, "agent", concurrentRun(0, 1));
    for await (const part of stream) if (part.event === "error") throw new Error(`recording run failed: ${JSON.stringify(part.data)}`);
  }
  // The first chunk goes out at once: the replay server has nothing to do before it.
  const first = chunks[0].at;
  return { thread, streamHeaders: headers, chunks: chunks.map((c) => ({ at: c.at - first, text: c.text })), endAt: endAt - first };
}

async function startReplay(file) {
  const child = spawn(process.execPath, [path.join(root, "bench/scripts/replay-server.mjs"), file], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error("replay server did not start in 10 s"));
    }, 10_000);
    child.once("exit", (code) => reject(new Error(`replay server exited (${code})`)));
    child.stdout.on("data", (d) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  const apiUrl = `http://127.0.0.1:${port}`;
  return {
    name: "replay (no work)",
    client: new Client({ apiUrl, callerOptions: { maxRetries: 0 } }),
    rssMb: () => treeRssMb(child.pid),
    stop: () => child.kill(),
  };
}

ensureBuild();
const tl = await startTarget("threadline", { OFFLINE_MODEL_DELAY_MS: "20", MAX_CONCURRENT_RUNS: "256" });
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "stream-floor-")), "recording.json");
let replay;
try {
  const recording = await record(tl);
  fs.writeFileSync(file, JSON.stringify(recording));
  const events = recording.chunks.reduce((n, c) => n + (c.text.match(/^event: /gm)?.length ?? 0), 0);
  const bytes = recording.chunks.reduce((n, c) => n + Buffer.byteLength(c.text), 0);
  const gaps = recording.chunks.slice(1).map((c, i) => c.at - recording.chunks[i].at);
  replay = await startReplay(file);
  console.log(`recorded run: ${events} events, ${bytes} bytes in ${recording.chunks.length} chunks over ${recording.endAt.toFixed(0)} ms; its largest gap between two chunks ${Math.max(...gaps).toFixed(1)} ms`);
  const lines = [];
  for (let r = 1; r <= rounds; r++) {
    for (const target of r % 2 ? [replay, tl] : [tl, replay]) {
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
  replay?.stop();
  await tl.stop();
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
process.exit(0);
