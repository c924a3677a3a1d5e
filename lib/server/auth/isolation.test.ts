import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { API_URL, createHarness, type Harness } from "../test-harness";
import { Router } from "../http/router";
import { buildRoutes } from "../http/routes";
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
    titleSearch: "all-titles",
  };
});
afterEach(() => h.close());

describe("accounts mode: per-user isolation on the embedded API", () => {
  it("B gets 404 on every route of A's thread, and A's thread is unchanged", async () => {
    const a = await seedThreadOfA(t);
    const before = await snapshotOf(t.a, a.id);
    expect(before.metadata).toMatchObject({ owner: "user-a", topic: "porto-trip" });

    const outcomes = await attemptsOfB(t, a);
    const expected = Object.fromEntries(Object.keys(outcomes).map((k) => [k, "404"]));
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

  it("a run that makes its thread but is refused (unknown checkpoint) makes none", async () => {
    const id = crypto.randomUUID();
    await expect(t.b.runs.wait(id, "agent", { input: { messages: [{ type: "human", content: "hi" }] }, ifNotExists: "create", checkpointId: "does-not-exist" })).rejects.toMatchObject({ status: 404 });
    await expect(t.b.threads.get(id)).rejects.toMatchObject({ status: 404 });
    expect(await h.api.registry.find(id)).toBeUndefined();
  });

  it("a run that would make its thread, beaten to it by another user's create, is refused and runs nothing there", async () => {
    const id = crypto.randomUUID();
    const create = h.api.registry.create.bind(h.api.registry);
    // A's create lands between B's run finding no thread and making it.
    const raced = vi.spyOn(h.api.registry, "create").mockImplementationOnce(async (opts) => {
      await create({ ...opts, metadata: { owner: "user-a" } });
      return create(opts);
    });
    await expect(t.b.runs.wait(id, "agent", { input: { messages: [{ type: "human", content: "hi" }] }, ifNotExists: "create" })).rejects.toMatchObject({ status: 404 });
    raced.mockRestore();
    expect((await t.a.threads.get(id)).metadata).toMatchObject({ owner: "user-a" });
    expect(await t.a.runs.list(id)).toEqual([]);
  });

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
    const rows = await h.sql("SELECT * FROM tl_api_keys");
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(await h.api.auth.keys.verify(key)).toMatchObject({ userId: "user-c" });
  });
});

describe("local mode: one implicit user, nothing changes", () => {
  it("needs no key, stamps no owner, and sees threads made before accounts existed", async () => {
    const local = createHarness();
    try {
      await local.api.ready; // the schema is migrated before anything is written behind the API's back
      await local.sql("INSERT INTO tl_threads (thread_id, created_at, updated_at, metadata) VALUES ('old', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '{}')");
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
    const r = buildRoutes(new Router());
    const missing = r.table.filter(([m, p]) => p !== "/info" && !r.eventOf(m, p));
    expect(missing).toEqual([]);
  });

  it("the suite hits every thread- and run-scoped route as B on A's thread, and each answers 404", async () => {
    // Every request the API answers, as route pattern, caller's key, thread and status.
    type Hit = { route: string; key: string | null; thread: string | undefined; status: number };
    const hits: Hit[] = [];
    const handle = Router.prototype.handle;
    const spy = vi.spyOn(Router.prototype, "handle").mockImplementation(async function (this: Router, api, req, segments) {
      const method = req.method === "HEAD" ? "GET" : req.method;
      const m = (this as unknown as { match(m: string, s: string[]): { route: { method: string; pattern: string } | null; params?: Record<string, string> } }).match(method, segments);
      const key = req.headers.get("x-api-key");
      const body = method === "POST" && m.route?.pattern === "/threads" ? ((await req.clone().json().catch(() => ({}))) as { thread_id?: string }) : {};
      const res = await handle.call(this, api, req, segments);
      if (m.route) hits.push({ route: `${m.route.method} ${m.route.pattern}`, key, thread: m.params?.thread_id ?? body.thread_id, status: res.status });
      return res;
    });
    try {
      const a = await seedThreadOfA(t);
      await attemptsOfB(t, a);
      // B on A's thread: which routes were hit, and what each answered.
      const byB = new Map<string, Set<number>>();
      for (const h of hits.filter((x) => x.key === t.keyB && x.thread === a.id)) byB.set(h.route, (byB.get(h.route) ?? new Set()).add(h.status));
      // Thread- and run-scoped: every route with :thread_id, plus a create that names A's id.
      const scoped = buildRoutes(new Router()).table.filter(([, p]) => p.includes(":thread_id")).map(([m, p]) => `${m} ${p}`);
      const outcomes = Object.fromEntries([...scoped, "POST /threads"].map((r) => [r, [...(byB.get(r) ?? [])].join(",") || "not hit"]));
      expect(outcomes).toEqual(Object.fromEntries([...scoped, "POST /threads"].map((r) => [r, "404"])));
      // Deliberate exceptions, not scoped to one thread: /info and the assistants (shared, read-only),
      // and /threads/search and /threads/count (narrowed, not refused: expectSearchesIsolated proves it).
      const rest = buildRoutes(new Router()).table.map(([m, p]) => `${m} ${p}`).filter((r) => !scoped.includes(r) && r !== "POST /threads");
      expect(rest.sort()).toEqual(
        ["GET /info", "POST /assistants/search", "GET /assistants/:assistant_id", "GET /assistants/:assistant_id/graph", "GET /assistants/:assistant_id/schemas", "GET /assistants/:assistant_id/subgraphs", "POST /threads/search", "POST /threads/count"].sort(),
      );
    } finally {
      spy.mockRestore();
    }
  }, 60_000);
});
