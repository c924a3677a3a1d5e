#!/usr/bin/env node
// How close can the sidebar's first page get to a bare `GET /info`, as the bench measures them
// (workload 2: `fetch` + `json()` for /info, the SDK's threads.search for the page)? This serves
// the very bytes Threadline answers both with (its /info body, and a real 50-row sidebar page read
// from a Threadline with 50 titled threads) from a bare node:http server that does no work at
// all, and times them with the bench's own client code, beside the same two requests to
// Threadline itself. The bare server's page/info ratio is what the client alone costs: a POST
// through the SDK and 13 kB of JSON to parse, against a GET of 150 bytes. (The bare server sends
// the body with Content-Type alone; Threadline adds a few headers, which is noise at this size.)
//
// Two more bare servers answer the same request with a leaner page (each row only its thread_id and
// title) and with no rows at all (`[]`): what the SDK's POST costs before any row, against the
// plain GET /info.
//
// And a bare Next app (bench/lib/bare-next.mjs): one route handler at Threadline's API path that
// answers the same two bodies with no work, built and run by `next start` like Threadline. Its page
// ÷ /info is what the framework and the client give before any work of ours: no server behind
// `next start` can do better than it on the target "within 1.2× /info on the same server".
//
//   node bench/scripts/page-floor.mjs [--samples=300] [--rounds=3] [--server-node-args="--max-semi-space-size=64"]
//
// --server-log=<file> keeps the server's output there, each line stamped with the client's clock.
// --server-node-args starts Threadline's `next start` with those V8/Node flags (e.g. a larger
// young generation, to see what the minor GCs add to the p95s).
//
// Needs a build (`npx next build`).
import fs from "node:fs";
import http from "node:http";
import { p50, p95 } from "../lib/stats.mjs";
import { buildBareNext, startBareNext } from "../lib/bare-next.mjs";
import { ensureBuild, startTarget } from "../lib/targets.mjs";
import { capturedBodies, readLatencies, seedPlainThreads } from "../workloads/scale.mjs";
import { Client } from "@langchain/langgraph-sdk";

const arg = (name, dflt) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt);
const samples = arg("samples", 300);
const rounds = arg("rounds", 3);

ensureBuild();
const serverNodeArgs = process.argv.find((a) => a.startsWith("--server-node-args="))?.slice("--server-node-args=".length).split(/\s+/).filter(Boolean) ?? [];
// --server-log=<file>: the server's output, line by line with the client's clock (ms), e.g. for --trace-gc.
const serverLog = process.argv.find((a) => a.startsWith("--server-log="))?.slice("--server-log=".length);
const onOutput = serverLog ? (line) => fs.appendFileSync(serverLog, `${performance.now().toFixed(1)} ${line}\n`) : undefined;
const tl = await startTarget("threadline", {}, { nodeArgs: serverNodeArgs, onOutput });
let bareNext;
try {
  await seedPlainThreads(tl.client);
  // The exact bodies Threadline sends, captured through the bench's own requests.
  const { info, page, rows } = await capturedBodies(tl);
  if (rows !== 50) throw new Error(`expected a page of 50, got ${rows}`);

  // Threadline's lean page carries the title in `extracted` (its `select` leaves `values` out).
  const lean = JSON.stringify(JSON.parse(page).map((r) => ({ thread_id: r.thread_id, extracted: { title: r.extracted?.title } })));
  const bareServers = [];
  const bareTarget = async (pageBody) => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.setHeader("Content-Type", "application/json");
        res.end(req.url.endsWith("/info") ? info : pageBody);
      });
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    bareServers.push(server);
    const apiUrl = `http://127.0.0.1:${server.address().port}`;
    return { kind: "threadline", apiUrl, pageBody, client: new Client({ apiUrl, callerOptions: { maxRetries: 0 } }) };
  };
  bareNext = await startBareNext(buildBareNext(), { info, page });
  const targets = [
    ["bare Next route handler (next start, no work)", bareNext],
    ["bare node:http (no work)", await bareTarget(page)],
    [`bare, lean rows (${lean.length} bytes)`, await bareTarget(lean)],
    ["bare, no rows (`[]`)", await bareTarget("[]")],
    ["Threadline (next start)", tl],
  ];

  /** The bench's own measurement (workload 2), after 20 untimed pairs. */
  const measure = async (target) => {
    const { info: infoMs, page: pageMs, untitled } = await readLatencies(target, samples, 20);
    if (untitled > 0 && target.pageBody !== "[]") throw new Error(`${untitled} rows without a title: the page served is not the one meant`);
    return { info: p50(infoMs), page: p50(pageMs), info95: p95(infoMs), page95: p95(pageMs) };
  };
  console.log(`page: ${page.length} bytes, /info: ${info.length} bytes; p50 of ${samples} after 20 warm-up; ${rounds} rounds, the servers taking turns, the order shifted by one each round`);
  console.log("| round | server | GET /info p50 ms | first page p50 ms | page − info ms | page ÷ info | /info p95 ms | page p95 ms | p95 ÷ p95 |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (let r = 1; r <= rounds; r++) {
    // Each round starts one further along, so no server always comes first or last.
    for (const [name, target] of targets.map((_, i) => targets[(i + r - 1) % targets.length])) {
      const m = await measure(target);
      console.log(`| ${r} | ${name} | ${m.info.toFixed(2)} | ${m.page.toFixed(2)} | ${(m.page - m.info).toFixed(2)} | ${(m.page / m.info).toFixed(2)}× | ${m.info95.toFixed(2)} | ${m.page95.toFixed(2)} | ${(m.page95 / m.info95).toFixed(2)}× |`);
    }
  }
  for (const server of bareServers) server.close();
} finally {
  await bareNext?.stop();
  await tl.stop();
}
process.exit(0);
