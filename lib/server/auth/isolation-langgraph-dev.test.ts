import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { startLanggraphDev, type LanggraphDevServer } from "@/lib/agent/testing/langgraph-dev-server";
import { sqliteApiKeyStore } from "./api-keys";
import { attemptsOfB, expectSearchesIsolated, seedThreadOfA, snapshotOf, type IsolationTarget } from "./isolation-suite";

// The same isolation suite against `langgraph dev` serving this repo's langgraph.json, whose
// "auth" is lib/server/auth/langgraph-auth.ts: the rules the embedded API runs, keys from DATA_DIR.
let server: LanggraphDevServer | undefined;
let t: IsolationTarget;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-lgdev-auth-"));

beforeAll(async () => {
  const db = new Database(path.join(dir, "threadline.sqlite"));
  const keys = sqliteApiKeyStore(db);
  const keyA = (await keys.create("user-a", "tests")).key;
  const keyB = (await keys.create("user-b", "tests")).key;
  db.close();
  server = await startLanggraphDev({ THREADLINE_AUTH: "accounts", DATA_DIR: dir });
  const apiUrl = server.apiUrl;
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
    titleSearch: "none",
  };
}, 100_000);

afterAll(() => {
  server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the same auth rules served by langgraph dev", () => {
  it("B is refused on every route of A's thread, and A's thread is unchanged", async () => {
    const a = await seedThreadOfA(t);
    const before = await snapshotOf(t.a, a.id);
    expect(before.metadata).toMatchObject({ owner: "user-a", topic: "porto-trip" });
    const outcomes = await attemptsOfB(t, a);
    // LangGraph's own answers where they are not 404 (the embedded API says 404): a create with
    // A's id is that server's 409 "already exists" (the embedded API answers 404, see
    // handlers/threads.ts), a copy of a hidden thread is a 409 "not found", and joining A's run or
    // reading A's checkpoint id through B's own thread returns B's own (empty) values. None holds
    // anything of A's thread ("200:LEAK" would say so).
    const langgraphAnswers: Record<string, string> = {
      createSameId: "409",
      createSameIdRaise: "409",
      copy: "409",
      runJoinViaOwnThread: "200",
      checkpointViaOwnThread: "200",
      checkpointPostViaOwnThread: "200",
    };
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
