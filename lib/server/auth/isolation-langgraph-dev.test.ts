import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { sqliteApiKeyStore } from "./api-keys";
import { attemptsOfB, expectSearchesIsolated, seedThreadOfA, snapshotOf, type IsolationTarget } from "./isolation-suite";

// The same isolation suite against `langgraph dev` serving this repo's langgraph.json, whose
// "auth" is lib/server/auth/langgraph-auth.ts: the rules the embedded API runs, keys from DATA_DIR.
let server: ChildProcess | undefined;
let log = "";
let t: IsolationTarget;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-lgdev-auth-"));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function waitForInfo(url: string, deadline: number) {
  while (Date.now() < deadline) {
    if (server?.exitCode != null) throw new Error(`langgraph dev exited early:\n${log}`);
    try {
      if ((await fetch(`${url}/info`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`langgraph dev did not start in time:\n${log}`);
}

beforeAll(async () => {
  const db = new Database(path.join(dir, "threadline.sqlite"));
  const keys = sqliteApiKeyStore(db);
  const keyA = keys.create("user-a", "tests").key;
  const keyB = keys.create("user-b", "tests").key;
  db.close();
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  server = spawn("node_modules/.bin/langgraphjs", ["dev", "--no-browser", "--port", String(port), "--host", "127.0.0.1"], {
    env: {
      ...process.env,
      THREADLINE_AUTH: "accounts",
      DATA_DIR: dir,
      OFFLINE_MODEL_DELAY_MS: "0",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      LANGSMITH_TRACING: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout?.on("data", (d) => (log += d));
  server.stderr?.on("data", (d) => (log += d));
  await waitForInfo(apiUrl, Date.now() + 90_000);
  const client = (apiKey: string) => new Client({ apiUrl, apiKey, callerOptions: { maxRetries: 0 } });
  t = {
    a: client(keyA),
    b: client(keyB),
    keyB,
    raw: (p, key, init = {}) => {
      const headers = new Headers(init.headers);
      if (key) headers.set("x-api-key", key);
      return fetch(`${apiUrl}${p}`, { ...init, headers });
    },
    rename: (c, id, title) => c.threads.updateState(id, { values: { title, title_source: { kind: "user" } } }),
    threadlineRoutes: false,
  };
}, 100_000);

afterAll(() => {
  if (server?.pid && server.exitCode == null) process.kill(-server.pid, "SIGTERM");
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the same auth rules served by langgraph dev", () => {
  it("B is refused on every route of A's thread, and A's thread is unchanged", async () => {
    const a = await seedThreadOfA(t);
    const before = await snapshotOf(t.a, a.id);
    expect(before.metadata).toMatchObject({ owner: "user-a", topic: "porto-trip" });
    const outcomes = await attemptsOfB(t, a);
    // LangGraph's own answers where they are not 404 (the embedded API says 404): a copy of a
    // hidden thread is a 409 "not found", and joining A's run through B's own thread returns B's
    // own (empty) values. Neither holds anything of A's thread ("200:LEAK" would say so).
    const langgraphAnswers: Record<string, string> = { createSameId: "409", copy: "409", runJoinViaOwnThread: "200" };
    const expected = Object.fromEntries(Object.keys(outcomes).map((k) => [k, langgraphAnswers[k] ?? "404"]));
    expect(outcomes).toEqual(expected);
    expect(await snapshotOf(t.a, a.id)).toEqual(before);
  }, 90_000);

  it("B's searches return none of A's threads; no key → 401", async () => {
    const a = await seedThreadOfA(t);
    await expectSearchesIsolated(t, a.id);
    const res = await t.raw("/threads/search", null, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    // The Studio shortcut (a header anyone can send) is off: it would be an identity without a key.
    const studio = await t.raw("/threads/search", null, { method: "POST", headers: { "Content-Type": "application/json", "x-auth-scheme": "langsmith" }, body: "{}" });
    expect(studio.status).toBe(401);
  }, 60_000);
});
