#!/usr/bin/env node
// What Next's gzip costs the first sidebar page on loopback: the lean page request (the body the
// web app's SDK call sends) with Host 127.0.0.1, which the API answers unzipped, beside the same
// request under a non-loopback Host (gzipped, as a client on another machine gets it, inflated
// here), and a bare GET /info; one keep-alive node:http client for all (fetch cannot set Host),
// interleaved in rounds of 300.
//
//   node bench/scripts/gzip-loopback.mjs [--data=DATA_DIR] [--seed=N]
//
// Needs a build (`npx next build`). --seed makes N titled threads first (create + updateState).
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { startTarget } from "../lib/targets.mjs";
import { seedThread } from "../workloads/scale.mjs";
import { p50, pool } from "../lib/stats.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const dataDir = path.resolve(arg("data", "/tmp/tl-gzip-loopback"));
const seed = Number(arg("seed", "0"));
fs.mkdirSync(dataDir, { recursive: true });
const target = await startTarget("threadline", { DATA_DIR: dataDir, THREADLINE_ALLOWED_HOSTS: "bench.example" });
const port = new URL(target.baseUrl).port;
const remoteHost = `bench.example:${port}`;
try {
  const sdk = target.client;
  let next = 0;
  await pool(seed, 8, () => seedThread(sdk, next++));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const page = JSON.stringify({
    select: ["thread_id", "created_at", "activity_at", "status", "metadata"],
    extract: { title: "values.title", title_source: "values.title_source" },
    sort_by: "activity_at", sort_order: "desc", limit: 50, offset: 0,
  });
  /** One request; resolves to the parsed body and the encoding it came in. */
  const send = (method, p, host, body) =>
    new Promise((resolve, reject) => {
      const req = http.request({ agent, host: "127.0.0.1", port, method, path: `/api/langgraph${p}`, headers: { host, "accept-encoding": "gzip", ...(body ? { "content-type": "application/json" } : {}) } }, (res) => {
        const parts = [];
        res.on("data", (d) => parts.push(d));
        res.on("end", () => {
          const raw = Buffer.concat(parts);
          const enc = res.headers["content-encoding"] ?? "none";
          resolve({ enc, json: JSON.parse((enc === "gzip" ? zlib.gunzipSync(raw) : raw).toString("utf8")) });
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  const local = `127.0.0.1:${port}`;
  const arms = [
    ["page, loopback (unzipped)", () => send("POST", "/threads/search", local, page)],
    ["page, other Host (gzip)", () => send("POST", "/threads/search", remoteHost, page)],
    ["GET /info", () => send("GET", "/info", local)],
  ];
  const first = await Promise.all(arms.map(([, f]) => f()));
  console.log(`content-encoding: ${arms.map(([name], i) => `${name}: ${first[i].enc}`).join("; ")}; rows ${first[0].json.length}`);
  const rounds = Object.fromEntries(arms.map(([name]) => [name, []]));
  for (let round = 0; round < 6; round++) {
    for (const [name, f] of arms) {
      const xs = [];
      for (let i = 0; i < 300; i++) {
        const s = performance.now();
        await f();
        xs.push(performance.now() - s);
      }
      if (round) rounds[name].push(p50(xs)); // round 0 warms up
    }
  }
  for (const [name, xs] of Object.entries(rounds)) console.log(`${name.padEnd(28)} p50 per round: ${xs.map((x) => x.toFixed(2)).join(" ")} ms`);
} finally {
  await target.stop();
}
