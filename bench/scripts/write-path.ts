/**
 * The write path in-process (no HTTP): the app's own database setup (lib/agent/runtime.ts, so the
 * same pragmas as `next start`), createApi, and the SDK Client on the in-process handler.
 * `npx tsx bench/scripts/write-path.ts [rename|run] [N] [block]` prints threads/s per block of N,
 * 8 workers, so a slope with N shows. DATABASE_URL=postgres://… runs it on Postgres.
 * Profile: `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/scripts/write-path.ts …`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { openAppAgent } from "@/lib/agent/runtime";
import { createApi } from "@/lib/server/api";
import { postgresStore } from "@/lib/server/store/db";
import type { AgentGraph } from "@/lib/server/graph";

const [mode = "rename", nArg = "2000", blockArg = "500"] = process.argv.slice(2);
const N = Number(nArg);
const BLOCK = Number(blockArg);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tl-writes-"));
const env = { ...process.env, DATA_DIR: dir, OFFLINE_MODEL_DELAY_MS: "0" };

const app = await openAppAgent(env);
const api = createApi({
  db: app.db,
  store: app.databaseUrl ? postgresStore(app.databaseUrl) : undefined,
  checkpointer: app.checkpointer,
  graph: app.agent.graph as unknown as AgentGraph,
  titleConfig: app.titleConfig,
});
const handler = (u: string | URL | Request, i?: RequestInit) => api.handle(new Request(u, i));
const client = new Client({ apiUrl: "http://threadline.test/api/langgraph", callerOptions: { maxRetries: 0, fetch: handler as typeof fetch } });
await api.ready;

const one = async (i: number) => {
  const t = await client.threads.create({ graphId: "agent", metadata: { bench: mode } });
  const text = `Question t${String(i).padStart(6, "0")} about sourdough baking`;
  if (mode === "run") await client.runs.wait(t.thread_id, "agent", { input: { messages: [{ role: "human", content: text }] } });
  else await client.threads.updateState(t.thread_id, { values: { title: text } });
};

let next = 0;
const rates: number[] = [];
while (next < N) {
  const end = Math.min(N, next + BLOCK);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < end) await one(next++);
    }),
  );
  const rate = (end - (end - BLOCK > 0 ? end - BLOCK : 0)) / ((performance.now() - started) / 1000);
  rates.push(rate);
  console.log(`${mode} N=${end}: ${rate.toFixed(1)}/s`);
}
console.log(`${mode} mean ${(rates.reduce((a, b) => a + b, 0) / rates.length).toFixed(1)}/s over ${N}`);

// A restart on the same data: how long the background drift pass takes over N threads.
api.runs.close();
await api.driftCheck;
app.db?.close();
const again = await openAppAgent(env);
const t0 = performance.now();
const api2 = createApi({
  db: again.db,
  store: again.databaseUrl ? postgresStore(again.databaseUrl) : undefined,
  checkpointer: again.checkpointer,
  graph: again.agent.graph as unknown as AgentGraph,
  titleConfig: again.titleConfig,
});
await api2.ready;
const t1 = performance.now();
const fixed = await api2.driftCheck;
console.log(`restart at N=${N}: ready ${(t1 - t0).toFixed(0)} ms, drift pass ${(performance.now() - t1).toFixed(0)} ms (${fixed} fixed)`);
api2.runs.close();
again.db?.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
