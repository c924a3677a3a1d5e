import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API_URL, createHarness, type Harness } from "../test-harness";
import { attemptsOfB, expectSearchesIsolated, seedThreadOfA, snapshotOf, type IsolationTarget } from "./isolation-suite";

let h: Harness;
let t: IsolationTarget;

beforeEach(async () => {
  h = createHarness({ authMode: "accounts" });
  const keyA = (await h.api.auth.keys.create("user-a", "tests")).key;
  const keyB = (await h.api.auth.keys.create("user-b", "tests")).key;
  t = {
    a: h.clientWithKey(keyA),
    b: h.clientWithKey(keyB),
    keyB,
    raw: (path, key, init = {}) => {
      const headers = new Headers(init.headers);
      if (key) headers.set("x-api-key", key);
      return h.api.handle(new Request(`${API_URL}${path}`, { ...init, headers }));
    },
    rename: (client, id, title) => client.threads.updateState(id, { values: { title } }),
    threadlineRoutes: true,
  };
});
afterEach(() => h.close());

describe("accounts mode: per-user isolation on the embedded API", () => {
  it("B gets 404 on every route of A's thread, and A's thread is unchanged", async () => {
    const a = await seedThreadOfA(t);
    const before = await snapshotOf(t.a, a.id);
    expect(before.metadata).toMatchObject({ owner: "user-a", topic: "porto-trip" });

    const outcomes = await attemptsOfB(t, a);
    const expected = Object.fromEntries(Object.keys(outcomes).map((k) => [k, k === "createSameId" ? "409" : "404"]));
    expect(outcomes).toEqual(expected);
    expect(await snapshotOf(t.a, a.id)).toEqual(before);
  }, 60_000);

  it("B's searches (plain, metadata, $title_search with A's former title) return none of A's threads", async () => {
    const a = await seedThreadOfA(t);
    await expectSearchesIsolated(t, a.id);
  }, 30_000);

  it("a client cannot hand a thread to someone else or claim one through metadata", async () => {
    const own = await t.b.threads.create({ metadata: { owner: "user-a" } });
    expect(own.metadata).toMatchObject({ owner: "user-b" });
    const patched = await t.b.threads.update(own.thread_id, { metadata: { owner: "user-a" } });
    expect(patched.metadata).toMatchObject({ owner: "user-b" });
    expect(await t.a.threads.search({ limit: 10 })).toEqual([]);
  });

  it("a thread made by a run (if_not_exists) and a copy belong to their creator", async () => {
    const id = crypto.randomUUID();
    await t.b.runs.wait(id, "agent", { input: { messages: [{ type: "human", content: "hi" }] }, ifNotExists: "create" });
    expect((await t.b.threads.get(id)).metadata).toMatchObject({ owner: "user-b" });
    const copy = await t.b.threads.copy(id);
    expect(copy.metadata).toMatchObject({ owner: "user-b" });
    await expect(t.a.threads.get(copy.thread_id)).rejects.toMatchObject({ status: 404 });
  }, 30_000);

  it("no key, or an unknown or revoked key → 401 {detail}; /info stays open", async () => {
    for (const key of [null, "tl_not-a-key"]) {
      const res = await t.raw("/threads/search", key, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
    const bearer = await t.raw("/threads/search", null, { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${t.keyB}` }, body: "{}" });
    expect(bearer.status).toBe(200);
    const [key] = await h.api.auth.keys.list("user-b");
    expect(await h.api.auth.keys.revoke("user-b", key.id)).toBe(true);
    expect((await t.raw("/threads/search", t.keyB, { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } })).status).toBe(401);
    expect((await t.raw("/info", null)).status).toBe(200);
  });

  it("keys are stored hashed: the database never holds a key itself", async () => {
    const { key } = await h.api.auth.keys.create("user-c", "laptop");
    const rows = h.db.prepare("SELECT * FROM tl_api_keys").all();
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(await h.api.auth.keys.verify(key)).toMatchObject({ userId: "user-c" });
  });
});

describe("local mode: one implicit user, nothing changes", () => {
  it("needs no key, stamps no owner, and sees threads made before accounts existed", async () => {
    const local = createHarness();
    try {
      await local.api.ready; // the schema is migrated before anything is written behind the API's back
      local.db.prepare("INSERT INTO tl_threads (thread_id, created_at, updated_at, metadata) VALUES ('old', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '{}')").run();
      const made = await local.client.threads.create({ metadata: { topic: "x" } });
      expect(made.metadata).toEqual({ topic: "x" });
      expect((await local.client.threads.search({ limit: 10 })).map((r) => r.thread_id).sort()).toEqual([made.thread_id, "old"].sort());
    } finally {
      await local.close();
    }
  });
});

describe("the route table", () => {
  it("every route but /info raises a LangGraph auth event", async () => {
    const { buildRoutes } = await import("../http/routes");
    const { Router } = await import("../http/router");
    const r = buildRoutes(new Router());
    const missing = r.table.filter(([m, p]) => p !== "/info" && !r.eventOf(m, p));
    expect(missing).toEqual([]);
  });
});
