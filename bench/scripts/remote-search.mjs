#!/usr/bin/env node
// How long a title search takes with the web app in front of a LangGraph server, where the Next
// server reads that server's newest threads and matches their titles itself
// (lib/server/remote/title-scan.ts). Starts `langgraph dev` and `next start` with
// LANGGRAPH_API_URL, gives langgraph dev N titled threads (create + a user-titled updateState),
// then times three searches through the SDK against the web app, p50/p95 of --samples each:
// one that matches a single thread, one that matches every thread (first page of 50), and one that
// matches none (the whole scan, up to THREADLINE_REMOTE_SEARCH_SCAN).
//
//   node bench/scripts/remote-search.mjs [--n=5000] [--samples=20] [--scan=5000] [--upstream=langgraph-dev|threadline]
//
// --upstream=threadline puts a second Threadline (its embedded API) behind the web app instead: a
// server that honours `extract`, as LangGraph Platform does, so the scan's pages are lean.
// Needs a build (`npx next build`). No model runs.
import { p50, p95, pool } from "../lib/stats.mjs";
import { startTarget } from "../lib/targets.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const n = Number(arg("n", "5000"));
const samples = Number(arg("samples", "20"));
const scan = arg("scan", "5000");
const upstreamKind = arg("upstream", "langgraph-dev");


const dev = await startTarget(upstreamKind);
let web;
try {
  web = await startTarget("threadline", { LANGGRAPH_API_URL: dev.apiUrl, THREADLINE_REMOTE_SEARCH_SCAN: scan });
  const t0 = Date.now();
  let made = 0;
  await pool(n, 8, async (i) => {
    const t = await dev.client.threads.create({ graphId: "agent" });
    const title = i === 0 ? "Sourdough starter rescue" : `Question ${i} about bread baking`;
    // A user rename, each server's way: Threadline pins `{ title }` itself.
    await dev.client.threads.updateState(t.thread_id, { values: upstreamKind === "threadline" ? { title } : { title, title_source: { kind: "user" } } });
    made++;
  });
  console.log(`${made} threads on ${dev.name} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const lean = { select: ["thread_id", "updated_at", "status", "metadata"], extract: { title: "values.title", title_source: "values.title_source" } };
  const rows = [];
  for (const [label, text] of [["matches 1 (the oldest)", "sourdough"], ["matches every thread (page of 50)", "baking"], ["matches none (whole scan)", "croissant"]]) {
    const ms = [];
    let found = 0;
    for (let i = 0; i < samples + 3; i++) {
      const s = performance.now();
      // As the sidebar asks: with `values` once it has learnt that the server drops `extract`.
      const select = upstreamKind === "threadline" ? lean.select : [...lean.select, "values"];
      const out = await web.client.threads.search({ ...lean, select, metadata: { $title_search: text }, limit: 50, sortBy: "updated_at", sortOrder: "desc" });
      if (i >= 3) ms.push(performance.now() - s);
      found = out.length;
    }
    rows.push({ search: label, found, p50: p50(ms).toFixed(0), p95: p95(ms).toFixed(0) });
  }
  console.log(`\n| ${dev.name}: ${n} threads, scan ${scan} | found | p50 ms | p95 ms |\n|---|---|---|---|`);
  for (const r of rows) console.log(`| ${r.search} | ${r.found} | ${r.p50} | ${r.p95} |`);
} finally {
  await web?.stop();
  await dev.stop();
}
