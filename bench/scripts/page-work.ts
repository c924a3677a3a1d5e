/**
 * What our own server does for the sidebar's first page beyond a `GET /info`, without Next or a
 * socket: the app's own database setup (lib/agent/runtime.ts), createApi, and Requests handed to
 * `api.serve` as the route handler hands them. Times, p50 of `--samples` after 200 untimed:
 *   - `GET /info` and the web app's page request (lib/client/thread-pages.ts; bench/workloads/
 *     scale.mjs's leanPage) through `api.serve`;
 *   - the store's query for that page alone (registry.searchJson), with and without `$as_of`;
 *   - the body's read and check alone (readJsonBody + the search schema);
 * so page − /info through `api.serve` splits into the store's query, the body, and the rest
 * (routing, auth rules, the Response). Then the same API behind a bare node:http front, timed as
 * the bench times `next start`: set beside page-floor.mjs's Threadline figure, what is Next's.
 *
 *   npx tsx bench/scripts/page-work.ts [--threads=50] [--samples=3000] [--rounds=3]
 */
import fs from "node:fs";
import os from "node:os";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Client, type ThreadSelectField } from "@langchain/langgraph-sdk";
import { openAppAgent } from "@/lib/agent/runtime";
import { createApi } from "@/lib/server/api";
import { readJsonBody, DEFAULT_BODY_LIMIT } from "@/lib/server/http/body";
import { threadSearchSchema } from "@/lib/server/http/schemas";
import { threadSearchQuery } from "@/lib/server/store/thread-query";
import type { AgentGraph } from "@/lib/server/graph";
import { LEAN_SELECT } from "@/lib/client/thread-pages";
import { LEAN_EXTRACT } from "@/lib/client/standard-search";
import { p50, timeSeries } from "../lib/stats.mjs";
import { seedPlainThreads } from "../workloads/scale.mjs";

const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt);
const threads = arg("threads", 50);
const samples = arg("samples", 3000);
const rounds = arg("rounds", 3);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tl-page-work-"));
const app = await openAppAgent({ ...process.env, DATA_DIR: dir, DATABASE_URL: "" });
const api = createApi({ db: app.db, checkpointer: app.checkpointer, graph: app.agent.graph as unknown as AgentGraph, titleConfig: app.titleConfig });
await api.ready;

const ROOT = "http://127.0.0.1:3000/api/langgraph";
const client = new Client({ apiUrl: ROOT, callerOptions: { maxRetries: 0, fetch: ((u: string, i?: RequestInit) => api.handle(new Request(u, i))) as typeof fetch } });
// The same threads as page-floor.mjs seeds, so the two scripts' figures stand side by side.
await seedPlainThreads(client, threads);

// The web app's request (lib/client/thread-pages.ts) as the SDK puts it on the wire.
const pageBody = (asOf: boolean) => ({
  select: [...LEAN_SELECT],
  extract: LEAN_EXTRACT,
  sort_by: "activity_at",
  sort_order: "desc",
  limit: 50,
  offset: 0,
  metadata: asOf ? { $as_of: new Date().toISOString() } : {},
});
const post = (body: unknown) => new Request(`${ROOT}/threads/search`, { method: "POST", headers: { "content-type": "application/json", host: "127.0.0.1:3000" }, body: JSON.stringify(body) });
const info = () => new Request(`${ROOT}/info`, { headers: { host: "127.0.0.1:3000" } });

const first = (await (await api.serve(post(pageBody(true)))).json()) as { extracted?: { title?: string } }[];
if (first.length !== Math.min(50, threads) || first.some((r) => !r.extracted?.title)) throw new Error("the page served is not the titled page meant");

// Parsed once: the store's figure is the query alone, the body's check is timed on its own.
const withAsOf = threadSearchQuery(threadSearchSchema.parse(pageBody(true)));
const withoutAsOf = threadSearchQuery(threadSearchSchema.parse(pageBody(false)));
const work: [string, () => Promise<unknown>][] = [
  ["GET /info through api.serve", async () => (await api.serve(info())).text()],
  ["page through api.serve", async () => (await api.serve(post(pageBody(true)))).text()],
  ["the store's query (with $as_of)", () => api.registry.searchJson(withAsOf)],
  ["the store's query (no $as_of)", () => api.registry.searchJson(withoutAsOf)],
  ["the body read and checked", async () => threadSearchSchema.parse(await readJsonBody(post(pageBody(true)), DEFAULT_BODY_LIMIT))],
];

const medianOf = async (f: () => Promise<unknown>) => p50(await timeSeries(f, samples, 200));

// The same API behind a bare node:http server (no Next), timed as the bench times `next start`
// (bench/workloads/scale.mjs, readLatencies): `fetch` + `json()` for /info, and the SDK's
// threads.search with the web app's lean request for the page, taking turns.
const server = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])));
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  const answer = await api.serve(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  res.end(Buffer.from(await answer.arrayBuffer()));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const bareUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/langgraph`;
const overHttp = new Client({ apiUrl: bareUrl, callerOptions: { maxRetries: 0 } });
const overHttpPair = async () => {
  let t = performance.now();
  await (await fetch(`${bareUrl}/info`)).json();
  const infoMs = performance.now() - t;
  t = performance.now();
  await overHttp.threads.search({
    select: [...LEAN_SELECT] as ThreadSelectField[],
    extract: { ...LEAN_EXTRACT },
    sortBy: "activity_at" as "updated_at", // Threadline's own sort key, unknown to the SDK's types
    sortOrder: "desc",
    limit: 50,
    offset: 0,
    metadata: { $as_of: new Date().toISOString() },
  });
  return [infoMs, performance.now() - t];
};

console.log(`${threads} threads, SQLite file; p50 of ${samples} after 200 untimed; ${rounds} rounds`);
console.log(`| round | ${work.map(([name]) => name).join(" | ")} | page − /info |`);
console.log(`|---|${work.map(() => "---|").join("")}---|`);
for (let r = 1; r <= rounds; r++) {
  const ms: number[] = [];
  for (const [, f] of work) ms.push(await medianOf(f));
  console.log(`| ${r} | ${ms.map((m) => `${m.toFixed(3)} ms`).join(" | ")} | ${(ms[1] - ms[0]).toFixed(3)} ms |`);
}

console.log(`\nThe same API behind a bare node:http server (no Next), the bench's client; p50 of ${samples} pairs after 200 untimed`);
console.log("| round | GET /info | first page | page − /info | page ÷ /info |");
console.log("|---|---|---|---|---|");
for (let r = 1; r <= rounds; r++) {
  for (let i = 0; i < 200; i++) await overHttpPair();
  const infoMs: number[] = [];
  const pageMs: number[] = [];
  for (let i = 0; i < samples; i++) {
    const [a, b] = await overHttpPair();
    infoMs.push(a);
    pageMs.push(b);
  }
  const [i50, p50b] = [infoMs, pageMs].map(p50);
  console.log(`| ${r} | ${i50.toFixed(3)} ms | ${p50b.toFixed(3)} ms | ${(p50b - i50).toFixed(3)} ms | ${(p50b / i50).toFixed(2)}× |`);
}
server.close();

api.runs.close();
await api.driftCheck;
app.db?.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
