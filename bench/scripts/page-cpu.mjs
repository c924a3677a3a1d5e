#!/usr/bin/env node
// Where Threadline's first page costs more than a Next app doing no work: the server's own CPU per
// request (its process tree, from /proc), for `GET /info` and for the web app's first page, on
// Threadline and on the bare Next app of bench/lib/bare-next.mjs answering Threadline's very bytes.
// CPU time, unlike a latency, does not move with what the rest of the machine does in that minute,
// and page − /info on each server leaves the part of the page that is Threadline's own.
// `--profile` also CPU-profiles Threadline's page loop and its /info loop (inspector) and splits
// the main thread's time by where the code lives: Next's own runtime (node_modules/next), our
// bundle (.next/server: lib/ with zod and Kysely), SQLite, LangChain/LangGraph, Node itself, GC.
//
//   node bench/scripts/page-cpu.mjs [--requests=2000] [--rounds=3] [--profile]
//
// Needs a build (`npx next build`).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildBareNext, startBareNext } from "../lib/bare-next.mjs";
import { ensureBuild, startTarget } from "../lib/targets.mjs";
import { capturedBodies, firstPage, seedPlainThreads } from "../workloads/scale.mjs";

const arg = (name, dflt) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt);
const requests = arg("requests", 2000);
const rounds = arg("rounds", 3);
const profileDir = process.argv.includes("--profile") ? fs.mkdtempSync(path.join(os.tmpdir(), "page-cpu-")) : undefined;

ensureBuild();
const tl = await startTarget("threadline", {}, { profileDir });
let bare;
try {
  await seedPlainThreads(tl.client);
  const bodies = await capturedBodies(tl);
  if (bodies.rows !== 50) throw new Error(`expected a page of 50, got ${bodies.rows}`);
  bare = await startBareNext(buildBareNext(), bodies);
  const info = async (on) => (await fetch(`${on.apiUrl}/info`)).json();
  const page = (on) => firstPage(on);
  /** Server CPU µs per request over `requests` sequential requests. */
  const cpuPer = async (on, request) => {
    const before = on.cpuSeconds();
    for (let i = 0; i < requests; i++) await request(on);
    return ((on.cpuSeconds() - before) * 1e6) / requests;
  };
  const servers = [
    ["Threadline", tl],
    ["a Next app doing no work", bare],
  ];
  for (const [, on] of servers) for (let i = 0; i < 300; i++) await Promise.all([info(on), page(on)]);
  console.log(`server CPU per request (µs), ${requests} sequential requests each; ${rounds} rounds, the servers taking turns`);
  console.log("| round | server | GET /info | first page | page − /info |");
  console.log("|---|---|---|---|---|");
  const extra = { Threadline: [], "a Next app doing no work": [] };
  for (let r = 1; r <= rounds; r++) {
    for (const [name, on] of r % 2 ? servers : [...servers].reverse()) {
      const i = await cpuPer(on, info);
      const p = await cpuPer(on, page);
      extra[name].push(p - i);
      console.log(`| ${r} | ${name} | ${i.toFixed(0)} | ${p.toFixed(0)} | ${(p - i).toFixed(0)} |`);
    }
  }
  const mid = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  console.log(`\nmedian page − /info: Threadline ${mid(extra.Threadline).toFixed(0)} µs, the no-work app ${mid(extra["a Next app doing no work"]).toFixed(0)} µs: Threadline's own share of the page ${(mid(extra.Threadline) - mid(extra["a Next app doing no work"])).toFixed(0)} µs of server CPU`);
  if (tl.profiler) {
    for (const [tag, request] of [["info", info], ["page", page]]) {
      await tl.profiler.start();
      for (let i = 0; i < requests; i++) await request(tl);
      const profile = await tl.profiler.stopProfile(tag);
      console.log(`\nThreadline, ${tag} loop (${requests} requests), main thread by where the code lives:\n${bucketed(profile, requests)}`);
    }
    console.log(`\nprofiles: ${profileDir}`);
  }
} finally {
  await bare?.stop();
  await tl.stop();
}
process.exit(0);

/** Self time by where the code lives, µs per request (1 sample ≈ its interval). */
function bucketed(profile, n) {
  const nodes = new Map(profile.nodes.map((x) => [x.id, x]));
  const buckets = new Map();
  profile.samples.forEach((id, i) => {
    const { url, functionName } = nodes.get(id).callFrame;
    const where =
      functionName === "(idle)" ? "idle" :
      functionName === "(garbage collector)" ? "GC" :
      /node_modules\/next\//.test(url) ? "Next's runtime (node_modules/next)" :
      /\.next\/server\//.test(url) ? "our bundle (.next/server: lib/, zod, Kysely)" :
      /better-sqlite3|sqlite/i.test(url) ? "SQLite" :
      /node_modules\/(@langchain|langchain)/.test(url) ? "LangChain / LangGraph" :
      /node_modules\//.test(url) ? "other packages" :
      url.startsWith("node:") || !url ? "Node itself (and native code)" : "other";
    buckets.set(where, (buckets.get(where) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return [...buckets.entries()].sort((a, b) => b[1] - a[1]).map(([k, us]) => `  ${k}: ${(us / n).toFixed(0)} µs per request`).join("\n");
}
