/**
 * What a finished run keeps in memory, in-process (the app's own database setup, createApi, no
 * HTTP): N streamed runs (the built-in model at no delay, 20 at a time, each on a thread of its
 * own, the bench's request), then the heap after full GCs: while the runs keep their whole stream
 * for resumes (RunLimits.fullReplayMs, 20 s here instead of 60 s), once they are compacted to their
 * outcome (joinable for finishedRetentionMs, 15 min), and once they are gone from memory. What
 * is left then is what the runs cost for good (a leak would show there).
 *
 *   node --expose-gc --import tsx bench/scripts/run-memory.ts [N=300]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openAppAgent } from "@/lib/agent/runtime";
import { createApi } from "@/lib/server/api";
import type { AgentGraph } from "@/lib/server/graph";
import { DEFAULT_RUN_LIMITS } from "@/lib/server/runs/run-limits";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc --import tsx");
const N = Number(process.argv[2] ?? 300);
// Long enough that no run is compacted before the first reading, short enough to wait for.
const FULL_REPLAY_MS = 20_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tl-run-memory-"));
const app = await openAppAgent({ ...process.env, DATA_DIR: dir, DATABASE_URL: "", OFFLINE_MODEL_DELAY_MS: "0" });
const api = createApi({
  db: app.db,
  checkpointer: app.checkpointer,
  graph: app.agent.graph as unknown as AgentGraph,
  titleConfig: app.titleConfig,
  runLimits: { maxConcurrentRuns: 64, fullReplayMs: FULL_REPLAY_MS },
});
await api.ready;
const base = "http://threadline.test/api/langgraph";
const post = (p: string, body: unknown) => api.handle(new Request(base + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
async function streamOne(i: number) {
  const id = ((await (await post("/threads", {})).json()) as { thread_id: string }).thread_id;
  const res = await post(`/threads/${id}/runs/stream`, { assistant_id: "agent", input: { messages: [{ role: "human", content: `Run ${i}` }] }, stream_mode: ["values", "messages-tuple"] });
  if (!(await res.text()).includes("event: values")) throw new Error(`run ${i} streamed no values`);
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};
const runsInMemory = (api.runs as unknown as { runs: Map<string, unknown> }).runs;

for (let i = 0; i < 30; i++) await streamOne(-1 - i); // warm: code compiled, caches filled
await sleep(FULL_REPLAY_MS + 500); // their compact timers fired: nothing of theirs holds on
runsInMemory.clear();
const before = heapMb();
for (let b = 0; b < Math.ceil(N / 20); b++) await Promise.all(Array.from({ length: Math.min(20, N - b * 20) }, (_, k) => streamOne(b * 20 + k)));
const full = heapMb();
await sleep(FULL_REPLAY_MS + 500);
const compacted = heapMb();
const kept = runsInMemory.size;
runsInMemory.clear();
const gone = heapMb();
const per = (mb: number) => `${(mb - before).toFixed(1)} MB, ${(((mb - before) * 1000) / N).toFixed(1)} kB a run`;
console.log(`${N} runs, heap after full GCs beyond the warm server's:`);
console.log(`  whole streams kept (the first ${DEFAULT_RUN_LIMITS.fullReplayMs / 1000} s after a run, by default): ${per(full)}`);
console.log(`  compacted to their outcome (${kept} runs joinable for ${DEFAULT_RUN_LIMITS.finishedRetentionMs / 60_000} min): ${per(compacted)}`);
console.log(`  gone from memory: ${per(gone)}`);
api.runs.close();
app.db?.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
