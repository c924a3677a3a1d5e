#!/usr/bin/env node
// Does the server slow down as it makes threads, or as its database grows? Creates threads the
// bench's seeding way (create + a titled updateState, 8 SDK workers) up to each N, and at each N
// prints GET /info and the first sidebar page (p50 of 100), the server's RSS and V8 heap after
// its last full GC, and the GC time spent while making that step's threads (--trace-gc). At the
// end the server is restarted on the same DATA_DIR and measured again: a fresh process on the
// same database tells the process's own growth apart from the data's.
//
//   node bench/scripts/growth.mjs [--steps=2000,10000,20000,40000] [--data=/tmp/tl-growth] [--after-restart=K]
//
// Needs a build (`npx next build`). No model: the threads get their titles by updateState.
import fs from "node:fs";
import path from "node:path";
import { p50, pool, sleep } from "../lib/stats.mjs";
import { startTarget, treeRssMb } from "../lib/targets.mjs";
import { backgroundStreams, readLatencies, seedThread } from "../workloads/scale.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const steps = arg("steps", "2000,10000,20000,40000").split(",").map(Number);
const dataDir = path.resolve(arg("data", "/tmp/tl-growth"));
// --streams=W --stream-secs=S: after each step's reading, W streaming runs (the bench's background
// streams, offline model at OFFLINE_MODEL_DELAY_MS=20) go on for S seconds, then a second reading.
const streams = Number(arg("streams", "0"));
const streamSecs = Number(arg("stream-secs", "15"));
const extraNodeArgs = arg("node-args", "").split(" ").filter(Boolean);
// --after-restart=K: the restarted process also makes K more threads, so a create rate that fell
// with N can be told apart: back up in a fresh process (the process's own growth) or not (the data).
const afterRestart = Number(arg("after-restart", "0"));
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

// One line per GC from --trace-gc, e.g. "[123:0x...]   4567 ms: Mark-Compact 120.3 (130.1) -> 100.2 (131.0) MB, 12.3 / 0.1 ms ..."
const GC_LINE = /(Scavenge|Mark-Compact|Mark-sweep)[^\d]*([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ ([\d.]+) ms/;

/** Threadline with --trace-gc on this script's DATA_DIR (kept across the restart), its GC lines summed. */
async function startServer() {
  const gc = { scavengeMs: 0, scavenges: 0, fullMs: 0, fulls: 0, heapAfterFull: 0, heapNow: 0 };
  const onOutput = (line) => {
    const m = GC_LINE.exec(line);
    if (!m) return;
    const ms = Number(m[6]);
    gc.heapNow = Number(m[4]);
    if (m[1] === "Scavenge") {
      gc.scavengeMs += ms;
      gc.scavenges++;
    } else {
      gc.fullMs += ms;
      gc.fulls++;
      gc.heapAfterFull = Number(m[4]);
    }
  };
  const target = await startTarget("threadline", { MAX_CONCURRENT_RUNS: "64", OFFLINE_MODEL_DELAY_MS: "20" }, { nodeArgs: ["--trace-gc", ...extraNodeArgs], dataDir, onOutput });
  return { ...target, gc };
}

/** p50s of 100 after 50 untimed pairs (a fresh process is still compiling). */
async function latencies(target) {
  const { info, page } = await readLatencies(target, 100, 50);
  return { info: p50(info), page: p50(page) };
}

/** Threads `from`..`to`-1, the bench's seeding way (seedThread); 8 SDK workers. */
async function makeThreads(target, from, to) {
  let next = from;
  await pool(to - from, 8, () => seedThread(target.client, next++));
}

const rows = [];
function report(row) {
  rows.push(row);
  console.log(JSON.stringify(row));
}

let target = await startServer();
try {
  let made = 0;
  for (const n of steps) {
    const before = { ...target.gc };
    const started = performance.now();
    await makeThreads(target, made, n);
    const secs = (performance.now() - started) / 1000;
    const perSec = (n - made) / secs;
    made = n;
    await sleep(2000);
    const l = await latencies(target);
    report({
      N: n,
      process: "same",
      createPerSec: +perSec.toFixed(1),
      infoMs: +l.info.toFixed(2),
      pageMs: +l.page.toFixed(2),
      rssMb: Math.round(treeRssMb(target.pid)),
      heapAfterLastFullGcMb: target.gc.heapAfterFull,
      heapNowMb: target.gc.heapNow,
      fullGcs: target.gc.fulls - before.fulls,
      fullGcMs: Math.round(target.gc.fullMs - before.fullMs),
      scavengeMs: Math.round(target.gc.scavengeMs - before.scavengeMs),
    });
    if (streams) {
      const errors = [];
      const stop = await backgroundStreams(target, streams, errors);
      await sleep(streamSecs * 1000);
      const runs = await stop();
      if (errors.length) console.log(`stream errors: ${errors.slice(0, 3).join("; ")}`);
      await sleep(2000);
      const after = await latencies(target);
      report({ N: n, process: `same, after ${runs} streamed runs`, infoMs: +after.info.toFixed(2), pageMs: +after.page.toFixed(2), rssMb: Math.round(treeRssMb(target.pid)), heapAfterLastFullGcMb: target.gc.heapAfterFull, heapNowMb: target.gc.heapNow });
    }
  }
  await target.stop();
  target = await startServer();
  await sleep(2000);
  const l = await latencies(target);
  report({ N: made, process: "fresh (restarted on the same DATA_DIR)", infoMs: +l.info.toFixed(2), pageMs: +l.page.toFixed(2), rssMb: Math.round(treeRssMb(target.pid)), heapNowMb: target.gc.heapNow });
  if (afterRestart > 0) {
    const started = performance.now();
    await makeThreads(target, made, made + afterRestart);
    const perSec = afterRestart / ((performance.now() - started) / 1000);
    made += afterRestart;
    await sleep(2000);
    const l2 = await latencies(target);
    report({ N: made, process: "fresh, after making more", createPerSec: +perSec.toFixed(1), infoMs: +l2.info.toFixed(2), pageMs: +l2.page.toFixed(2), rssMb: Math.round(treeRssMb(target.pid)), heapNowMb: target.gc.heapNow });
  }
} finally {
  await target.stop();
}
console.log("\n| N | process | create/s | /info p50 ms | page p50 ms | RSS MB | heap after last full GC MB | full GCs (ms) in step | scavenge ms in step |");
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.N} | ${r.process} | ${r.createPerSec ?? ""} | ${r.infoMs} | ${r.pageMs} | ${r.rssMb} | ${r.heapAfterLastFullGcMb ?? ""} | ${r.fullGcs ?? ""}${r.fullGcMs != null ? ` (${r.fullGcMs})` : ""} | ${r.scavengeMs ?? ""} |`);
