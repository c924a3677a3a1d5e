/**
 * The CPU floor of workload 6 (concurrent streaming runs), in-process, no HTTP: K runs of the real
 * agent graph (the app's own setup from lib/agent/runtime.ts: the built-in offline model, a real
 * SQLite file in a temp dir, the gated checkpointer), each on its own thread, all started at once.
 *   npx tsx bench/scripts/stream-floor.ts [graph|api] [K] [delayMs]
 * - graph: `agent.graph.stream` with the modes the API asks the graph for (values + messages),
 *   the LangGraph/LangChain cost alone.
 * - api: the same runs through createApi's handler (POST /threads/{id}/runs/stream, values +
 *   messages-tuple as the bench and web app request), reading the raw SSE bytes: LangGraph plus
 *   our server (registry writes, fan-out, SSE encode), without Next and sockets.
 * Prints process CPU µs per emitted event and events per CPU second (saturation throughput on one
 * core), plus wall time, and the first event's (graph: chunk's) p50 and the gap p99 as this
 * process sees them. Compare with `node bench/stream-only.mjs` (server CPU over the same
 * events, via Next) to split the cost by layer.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openAppAgent } from "@/lib/agent/runtime";
import { createApi } from "@/lib/server/api";
import type { AgentGraph } from "@/lib/server/graph";
import { p50, p99 } from "../lib/stats.mjs";

const [mode = "graph", kArg = "200", delayArg = "20"] = process.argv.slice(2);
const K = Number(kArg);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tl-floor-"));
const env = { ...process.env, DATA_DIR: dir, OFFLINE_MODEL_DELAY_MS: delayArg, MAX_CONCURRENT_RUNS: "256" };
const app = await openAppAgent(env);
const input = (i: number) => ({ messages: [{ role: "human", content: `Concurrent run ${i} of ${K}` }] });

async function viaGraph(i: number): Promise<number> {
  const graph = app.agent.graph as unknown as AgentGraph;
  const t0 = performance.now();
  const stream = await graph.stream(input(i), { configurable: { thread_id: `floor-${i}` }, streamMode: ["values", "messages"] });
  let n = 0;
  let last = t0;
  for await (const chunk of stream) {
    if (!chunk) continue;
    // The graph's own pace: from the call to its first chunk, then between chunks.
    const now = performance.now();
    (n++ ? gaps : firsts).push(now - last);
    last = now;
  }
  return n;
}

const api = mode === "api" ? createApi({ db: app.db, checkpointer: app.checkpointer, graph: app.agent.graph as unknown as AgentGraph, titleConfig: app.titleConfig, runLimits: { maxConcurrentRuns: 256 } }) : null;
const base = "http://threadline.test/api/langgraph";

const post = (p: string, body: unknown) => api!.handle(new Request(base + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
const threadIds = new Map<number, string>();
/** Like the bench: every thread exists before the runs start. */
async function makeThread(i: number) {
  threadIds.set(i, ((await (await post("/threads", {})).json()) as { thread_id: string }).thread_id);
}

async function viaApi(i: number): Promise<number> {
  const thread_id = threadIds.get(i)!;
  t0Of.set(i, performance.now());
  const res = await post(`/threads/${thread_id}/runs/stream`, { assistant_id: "agent", input: input(i), stream_mode: ["values", "messages-tuple"] });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let last = t0Of.get(i)!;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    const now = performance.now();
    const chunk = decoder.decode(r.value, { stream: true });
    // As the SDK sees it: every event of a chunk arrives at once (the first after the wait).
    const n = chunk.match(/^event: /gm)?.length ?? 0;
    if (n) {
      (text ? gaps : firsts).push(now - last);
      for (let k = 1; k < n; k++) gaps.push(0);
      last = now;
    }
    text += chunk;
  }
  return text.split("\n\n").filter((b) => b.startsWith("event:") || b.includes("\nevent:")).length;
}
/** api mode: per run, from its POST to its first event, and between events (as a client in this process sees them). */
const firsts: number[] = [];
const gaps: number[] = [];
const t0Of = new Map<number, number>();

if (api) await api.ready;
// Warm up (module init, JIT, the tables) outside the measurement.
if (api) for (let i = -1; i < K; i++) await makeThread(i);
await (api ? viaApi : viaGraph)(-1);
firsts.length = gaps.length = 0;

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const counts = await Promise.all(Array.from({ length: K }, (_, i) => (api ? viaApi : viaGraph)(i)));
const wall = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const cpuS = (cpu.user + cpu.system) / 1e6;
const events = counts.reduce((a, b) => a + b, 0);
console.log(
  `${mode} K=${K} delay=${delayArg}ms: ${events} events (${(events / K).toFixed(1)}/run), CPU ${cpuS.toFixed(2)} s in ${wall.toFixed(2)} s wall` +
    ` → ${((cpuS * 1e6) / events).toFixed(0)} µs CPU/event, ${(events / cpuS).toFixed(0)} events per CPU-second, ${(events / wall).toFixed(0)} events/s wall`,
);
console.log(`  first ${api ? "event" : "chunk"} p50 ${p50(firsts).toFixed(0)} ms, inter-${api ? "event" : "chunk"} gap p99 ${p99(gaps).toFixed(0)} ms (in-process client)`);
api?.runs.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
