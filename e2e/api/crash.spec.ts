import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Client } from "@langchain/langgraph-sdk";

/**
 * Crash harness: the built server is started, given first runs (TITLE_INSTANT on and off by
 * round), second messages and renames, and killed with SIGKILL at a random moment; then it is
 * started again on the same SQLite file. At the end every thread must be consistent: a thread
 * holding a user message has a title, no acknowledged message or rename is lost, none is stuck
 * `busy`, and the registry (what the sidebar lists) equals the checkpoint.
 *
 * CRASH_ROUNDS sets the number of kills (npm test: 5; by hand: CRASH_ROUNDS=50).
 */
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 5);
const PORT = Number(process.env.E2E_PORT ?? 3217) + 60;
const BASE = `http://127.0.0.1:${PORT}/api/langgraph`;

type Msg = { type: string; content: unknown };
type Values = { title?: string | null; title_source?: { kind: string } | null; messages?: Msg[] };

async function startServer(dataDir: string, instant: boolean): Promise<ChildProcess> {
  // Loopback only: local mode refuses to serve where the network can reach it.
  const child = spawn("node_modules/.bin/next", ["start", "-H", "127.0.0.1", "-p", String(PORT)], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      TITLE_INSTANT: String(instant),
      OFFLINE_MODEL_DELAY_MS: "25",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true, // its own process group, so SIGKILL reaches every process it started
  });
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += d));
  for (const started = Date.now(); Date.now() - started < 30_000; ) {
    if (child.exitCode != null) throw new Error(`server exited: ${stderr}`);
    const ok = await fetch(`${BASE}/info`).then((r) => r.ok, () => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not start: ${stderr}`);
}

async function kill9(child: ChildProcess) {
  const exited = new Promise((r) => child.once("exit", r));
  process.kill(-child.pid!, "SIGKILL");
  await exited;
}

const textOf = (m: Msg) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

test("crash harness: kill -9 at random moments loses no title, message or rename", async () => {
  test.setTimeout(120_000 + ROUNDS * 8_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-crash-"));
  const sdk = new Client({ apiUrl: BASE, callerOptions: { maxRetries: 0 } });
  /** Acknowledged user messages per thread (the run was accepted before the kill). */
  const sent = new Map<string, string[]>();
  /** Per thread: the last acknowledged rename, and a rename whose answer the kill swallowed. */
  const renamed = new Map<string, { acked: string | null; unknown: string[] }>();
  const started = Date.now();
  let killsMidRun = 0;

  for (let round = 0; round < ROUNDS; round++) {
    const server = await startServer(dataDir, round % 2 === 0);
    const send = async (threadId: string, text: string) => {
      await sdk.runs.create(threadId, "agent", { input: { messages: [{ type: "human", content: text }] }, multitaskStrategy: "enqueue" });
      sent.set(threadId, [...(sent.get(threadId) ?? []), text]);
    };
    const rename = async (threadId: string, title: string) => {
      const r = renamed.get(threadId) ?? { acked: null, unknown: [] };
      renamed.set(threadId, r);
      r.unknown.push(title);
      await sdk.threads.updateState(threadId, { values: { title } });
      r.acked = title;
      r.unknown = [];
    };
    const known = [...sent.keys()];
    // New threads with first runs, renames and follow-ups all at once; requests the kill cuts
    // are simply not acknowledged.
    const firstRuns = [0, 1, 2].map(async (k) => {
      const t = await sdk.threads.create();
      await send(t.thread_id, `Round ${round} thread ${k}: how do tides work near the equator?`);
    });
    const renames = known.sort(() => Math.random() - 0.5).slice(0, 2).map((id) => rename(id, `Renamed in round ${round} ${id.slice(0, 4)}`));
    const followUp = known.length ? [send(known[Math.floor(Math.random() * known.length)], `Follow-up in round ${round}`)] : [];
    const working = Promise.allSettled([...firstRuns, ...renames, ...followUp]);
    await new Promise((r) => setTimeout(r, 20 + Math.random() * 700));
    const busy = await sdk.threads.search({ status: "busy", limit: 100, select: ["thread_id"] }).catch(() => []);
    if (busy.length) killsMidRun++;
    await kill9(server);
    await working;
  }

  const server = await startServer(dataDir, true);
  try {
    const rows = (await sdk.threads.search({ limit: 1000, select: ["thread_id", "status"], extract: { title: "values.title", title_source: "values.title_source" } })) as unknown as {
      thread_id: string;
      status: string;
      extracted: { title: string | null; title_source: { kind: string } | null };
    }[];
    let untitled = 0;
    let lostMessages = 0;
    let lostRenames = 0;
    let stuck = 0;
    let drift = 0;
    for (const row of rows) {
      const values = (await sdk.threads.getState<Values>(row.thread_id)).values;
      const userTexts = (values.messages ?? []).filter((m) => m.type === "human").map(textOf);
      if (userTexts.length && !values.title) untitled++;
      if (row.status === "busy") stuck++;
      if (row.extracted.title !== (values.title ?? null) || row.extracted.title_source?.kind !== values.title_source?.kind) drift++;
      for (const text of sent.get(row.thread_id) ?? []) if (!userTexts.includes(text)) lostMessages++;
      const r = renamed.get(row.thread_id);
      const allowed = r ? [...(r.acked ? [r.acked] : []), ...r.unknown] : [];
      if (r?.acked && !allowed.includes(values.title ?? "")) lostRenames++;
    }
    const acked = [...sent.values()].reduce((n, l) => n + l.length, 0);
    const ackedRenames = [...renamed.values()].filter((r) => r.acked).length;
    console.log(
      `crash harness: ${ROUNDS} kills (${killsMidRun} with a run going), ${rows.length} threads, ${acked} acknowledged messages, ` +
        `${ackedRenames} renamed threads in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
        `${untitled} untitled, ${lostMessages} messages lost, ${lostRenames} renames lost, ${stuck} stuck busy, ${drift} registry/checkpoint mismatches`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect({ untitled, lostMessages, lostRenames, stuck, drift }).toEqual({ untitled: 0, lostMessages: 0, lostRenames: 0, stuck: 0, drift: 0 });
  } finally {
    await kill9(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
