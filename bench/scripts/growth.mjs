#!/usr/bin/env node
// Does the server slow down as it makes threads, or as its database grows? Creates threads the
// bench's seeding way (create + a titled updateState, 8 SDK workers) up to each N, and at each N
// prints GET /info and the first sidebar page (p50 of 100), the server's RSS and V8 heap after
// its last full GC, and the GC time spent while making that step's threads (--trace-gc). At the
// end the server is restarted on the same DATA_DIR and measured again: a fresh process on the
// same database tells the process's own growth apart from the data's.
//
//   node bench/scripts/growth.mjs [--steps=2000,10000,20000,40000] [--data=/tmp/tl-growth] [--after-restart=K]
//                                 [--settle=2] [--reread-after=S]
//
// Each reading also gives the p95s and the GCs that ran while it was taken. --settle=S waits S
// seconds between making a step's threads and reading (the bench reads at once: --settle=0);
// --reread-after=S reads once more S seconds later, so the first reading can be told apart from
// one taken once the server has had time after the writes.
//
// Needs a build (`npx next build`). No model: the threads get their titles by updateState.
import fs from "node:fs";
import path from "node:path";
import { p50, p95, pool, sleep } from "../lib/stats.mjs";
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
const settleSecs = Number(arg("settle", "2"));
const rereadAfter = Number(arg("reread-after", "0"));
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

/** p50s and p95s of 100 after 50 untimed pairs (a fresh process is still compiling), and the GCs meanwhile. */
async function latencies(target) {
  const before = { ...target.gc };
  const { info, page } = await readLatencies(target, 100, 50);
  const gc = target.gc;
  const during = `${gc.scavenges - before.scavenges} scavenges (${(gc.scavengeMs - before.scavengeMs).toFixed(1)} ms), ${gc.fulls - before.fulls} full (${(gc.fullMs - before.fullMs).toFixed(1)} ms)`;
  return { info: p50(info), page: p50(page), info95: p95(info), page95: p95(page), during };
}

/** A reading's figures as report() takes them. */
const figures = (l) => ({ infoMs: +l.info.toFixed(2), pageMs: +l.page.toFixed(2), infoP95Ms: +l.info95.toFixed(2), pageP95Ms: +l.page95.toFixed(2), gcWhileReading: l.during });

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
    await sleep(settleSecs * 1000);
    const l = await latencies(target);
    report({
      N: n,
      process: "same",
      createPerSec: +perSec.toFixed(1),
      ...figures(l),
      rssMb: Math.round(treeRssMb(target.pid)),
      heapAfterLastFullGcMb: target.gc.heapAfterFull,
      heapNowMb: target.gc.heapNow,
      fullGcs: target.gc.fulls - before.fulls,
      fullGcMs: Math.round(target.gc.fullMs - before.fullMs),
      scavengeMs: Math.round(target.gc.scavengeMs - before.scavengeMs),
    });
    if (rereadAfter) {
      await sleep(rereadAfter * 1000);
      report({ N: n, process: `same, ${rereadAfter} s later`, ...figures(await latencies(target)), rssMb: Math.round(treeRssMb(target.pid)), heapNowMb: target.gc.heapNow });
    }
    if (streams) {
      const errors = [];
      const stop = await backgroundStreams(target, streams, errors);
      await sleep(streamSecs * 1000);
      const runs = await stop();
      if (errors.length) console.log(`stream errors: ${errors.slice(0, 3).join("; ")}`);
      await sleep(2000);
      const after = await latencies(target);
      report({ N: n, process: `same, after ${runs} streamed runs`, ...figures(after), rssMb: Math.round(treeRssMb(target.pid)), heapAfterLastFullGcMb: target.gc.heapAfterFull, heapNowMb: target.gc.heapNow });
    }
  }
  await target.stop();
  target = await startServer();
  await sleep(2000);
  const l = await latencies(target);
  report({ N: made, process: "fresh (restarted on the same DATA_DIR)", ...figures(l), rssMb: Math.round(treeRssMb(target.pid)), heapNowMb: target.gc.heapNow });
  if (afterRestart > 0) {
    const started = performance.now();
    await makeThreads(target, made, made + afterRestart);
    const perSec = afterRestart / ((performance.now() - started) / 1000);
    made += afterRestart;
    await sleep(2000);
    const l2 = await latencies(target);
    report({ N: made, process: "fresh, after making more", createPerSec: +perSec.toFixed(1), ...figures(l2), rssMb: Math.round(treeRssMb(target.pid)), heapNowMb: target.gc.heapNow });
  }
} finally {
  await target.stop();
}
console.log("\n| N | process | create/s | /info p50 / p95 ms | page p50 / p95 ms | GC while reading | RSS MB | heap after last full GC MB | full GCs (ms) in step | scavenge ms in step |");
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.N} | ${r.process} | ${r.createPerSec ?? ""} | ${r.infoMs} / ${r.infoP95Ms} | ${r.pageMs} / ${r.pageP95Ms} | ${r.gcWhileReading} | ${r.rssMb} | ${r.heapAfterLastFullGcMb ?? ""} | ${r.fullGcs ?? ""}${r.fullGcMs != null ? ` (${r.fullGcMs})` : ""} | ${r.scavengeMs ?? ""} |`);
