import { afterEach, describe, expect, it, vi } from "vitest";
import { ScriptedModel, createHarness, human, sleep, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => h?.close());

const LEAN = {
  select: ["thread_id", "created_at", "updated_at", "status", "metadata"] as ("thread_id" | "created_at" | "updated_at" | "status" | "metadata")[],
  extract: { title: "values.title", title_source: "values.title_source" },
};
/** Threadline's list order (not in the SDK's types). */
const BY_ACTIVITY = "activity_at" as "updated_at";

async function titled(title: string, metadata: Record<string, unknown> = {}) {
  const t = await h.client.threads.create({ metadata });
  await h.client.threads.updateState(t.thread_id, { values: { title } });
  return t.thread_id;
}

describe("threads: create, get, patch, delete", () => {
  it("round-trips a thread through the SDK", async () => {
    h = createHarness();
    const t = await h.client.threads.create({ metadata: { project: "x" } });
    expect(t).toMatchObject({ status: "idle", metadata: { project: "x" }, values: null });
    expect(typeof t.created_at).toBe("string");

    const got = await h.client.threads.get(t.thread_id);
    expect(got.thread_id).toBe(t.thread_id);

    const patched = await h.client.threads.update(t.thread_id, { metadata: { starred: true } });
    expect(patched.metadata).toEqual({ project: "x", starred: true });
    expect(patched.updated_at > t.updated_at).toBe(true);

    await h.client.threads.delete(t.thread_id);
    await expect(h.client.threads.get(t.thread_id)).rejects.toThrow(/404/);
  });

  it("honours thread_id and if_exists", async () => {
    h = createHarness();
    await h.client.threads.create({ threadId: "fixed-id" });
    await expect(h.client.threads.create({ threadId: "fixed-id" })).rejects.toThrow(/409/);
    const again = await h.client.threads.create({ threadId: "fixed-id", ifExists: "do_nothing" });
    expect(again.thread_id).toBe("fixed-id");
  });

  it("deleting a busy thread cancels its run first", async () => {
    h = createHarness({ model: new ScriptedModel(["tok ".repeat(200)], 5) });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Busy then gone") });
    await sleep(30);
    await h.client.threads.delete(t.thread_id);
    expect(h.api.runs.get(run.run_id)?.status).toBe("interrupted");
    await expect(h.client.runs.get(t.thread_id, run.run_id)).rejects.toThrow(/404/);
    expect(await h.saver.getTuple({ configurable: { thread_id: t.thread_id } })).toBeUndefined();
    expect(await h.client.threads.count()).toBe(0);
  });

  it("delete removes checkpoints and search rows", async () => {
    h = createHarness();
    const id = await titled("Doomed thread");
    await h.client.threads.delete(id);
    expect(await h.saver.getTuple({ configurable: { thread_id: id } })).toBeUndefined();
    expect(await h.client.threads.search({ metadata: { $title_search: "doomed" } })).toEqual([]);
  });
});

describe("threads: a thread's head (queries.ts)", () => {
  it("holds what the checks read but not the values snapshot; a values write answers the title columns as the row has them after it", async () => {
    h = createHarness();
    const id = await titled("Tide tables");
    const head = await h.api.q.getThreadHead(id);
    expect(head).toMatchObject({ thread_id: id, title: "Tide tables", title_source: JSON.stringify({ kind: "user" }), pin_pending: 0, status: "idle" });
    expect(head).not.toHaveProperty("values_json");
    expect(JSON.parse((await h.api.q.getThread(id))!.values_json!)).toMatchObject({ title: "Tide tables" });

    const after = await h.api.q.setValuesOnly(id, JSON.stringify({ title: "Written by a run" }));
    // The title columns are the projection's: a bare snapshot write leaves them as they were.
    expect(after).toEqual({ title: "Tide tables", title_source: JSON.stringify({ kind: "user" }), pin_pending: 0 });
    expect((await h.api.q.getThread(id))!.values_json).toBe(JSON.stringify({ title: "Written by a run" }));
    expect(await h.api.q.setValuesOnly("no-such-thread", "{}")).toBeUndefined();
    expect(await h.api.q.getThreadHead("no-such-thread")).toBeUndefined();
  });
});

describe("threads: search, count, sort, paging", () => {
  it("filters by metadata, status and ids, counts, sorts and pages", async () => {
    h = createHarness();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.client.threads.create({ metadata: { n: i, team: i % 2 ? "odd" : "even" } })).thread_id);
    expect(await h.client.threads.count()).toBe(5);
    expect(await h.client.threads.count({ metadata: { team: "odd" } })).toBe(2);
    expect((await h.client.threads.search({ metadata: { n: 3 } })).map((t) => t.thread_id)).toEqual([ids[3]]);
    expect(await h.client.threads.search({ metadata: { n: "3" } })).toEqual([]);
    expect((await h.client.threads.search({ ids: [ids[0], ids[4]] })).length).toBe(2);
    expect((await h.client.threads.search({ status: "busy" })).length).toBe(0);

    const asc = await h.client.threads.search({ sortBy: "created_at", sortOrder: "asc" });
    expect(asc.map((t) => t.thread_id)).toEqual(ids);
    const page2 = await h.client.threads.search({ sortBy: "created_at", sortOrder: "asc", limit: 2, offset: 2 });
    expect(page2.map((t) => t.thread_id)).toEqual(ids.slice(2, 4));

    await h.client.threads.update(ids[1], { metadata: { touched: true } });
    const recent = await h.client.threads.search({ sortBy: "updated_at", sortOrder: "desc", limit: 1 });
    expect(recent[0].thread_id).toBe(ids[1]);
  });

  it("returns the titles of 100 threads in one lean request without reading any checkpoint", async () => {
    h = createHarness();
    for (let i = 0; i < 100; i++) {
      const t = await h.client.threads.create();
      await h.client.runs.wait(t.thread_id, "agent", { input: human(`Question number ${i} about sqlite`) });
    }
    expect(h.model.calls).toBe(100);
    const getTuple = vi.spyOn(h.saver, "getTuple");
    const list = vi.spyOn(h.saver, "list");
    const getState = vi.spyOn(h.api.graph, "getState");
    const rows = await h.client.threads.search({ ...LEAN, sortBy: "updated_at", sortOrder: "desc", limit: 100 });
    expect(rows).toHaveLength(100);
    expect(getTuple).not.toHaveBeenCalled();
    expect(list).not.toHaveBeenCalled();
    expect(getState).not.toHaveBeenCalled();
    expect(rows[0]).not.toHaveProperty("values");
    expect(rows[0].extracted).toEqual({ title: "Question number 99 about sqlite", title_source: { kind: "fallback" } });
    expect(new Set(rows.map((r) => (r.extracted as { title: string }).title)).size).toBe(100);
  });

  it("standard search (no select) returns values from the registry snapshot", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Snapshot me") });
    const [row] = await h.client.threads.search();
    expect((row.values as { title: string }).title).toBe("Snapshot me");
    expect((row.values as { messages: unknown[] }).messages).toHaveLength(2);
  });
});

describe("threads: $title_search (FTS5)", () => {
  it("matches word prefixes case-insensitively, current and earlier titles, and never breaks on FTS syntax", async () => {
    h = createHarness();
    const lisbon = await titled("Plan a trip to Lisbon");
    const food = await titled("Lisbon food guide");
    const rust = await titled("Rust borrow checker");
    await h.client.threads.updateState(rust, { values: { title: "Ownership questions" } });
    const find = async (q: string) =>
      (await h.client.threads.search({ ...LEAN, metadata: { $title_search: q }, limit: 50 })).map((t) => t.thread_id).sort();

    expect(await find("lisb")).toEqual([lisbon, food].sort());
    expect(await find("LISBON FOOD")).toEqual([food]);
    expect(await find("borrow")).toEqual([rust]); // an earlier title
    expect(await find("ownership")).toEqual([rust]);
    expect(await find("café")).toEqual([]);
    for (const nasty of ['"', 'AND OR NOT', "trip*)", "NEAR(a b)", "'; DROP TABLE tl_threads; --", "title:lisbon", "^", "!!!"]) {
      const res = await h.fetch("/threads/search", { method: "POST", body: JSON.stringify({ metadata: { $title_search: nasty } }), headers: { "content-type": "application/json" } });
      expect(res.status, nasty).toBe(200);
    }
    expect(await find("title:lisbon")).toEqual([]); // column filters are words here, not syntax
    expect(await h.client.threads.count({ metadata: { $title_search: "lisbon" } })).toBe(2);
  });
});

describe("threads: $as_of snapshot paging", () => {
  it("shows every thread exactly once across pages while threads are updated and created", async () => {
    h = createHarness();
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await titled(`Thread ${i}`));
    const expected = [...ids].reverse(); // most recently active first
    const { server_time: asOf } = (await (await h.fetch("/info")).json()) as { server_time: string };
    const page = (offset: number) =>
      h.client.threads.search({ ...LEAN, metadata: { $as_of: asOf }, sortBy: BY_ACTIVITY, sortOrder: "desc", limit: 10, offset });

    const seen = (await page(0)).map((t) => t.thread_id);
    // Activity between page loads: the oldest threads get messages (jump to the top), one is new.
    await h.client.runs.wait(ids[0], "agent", { input: human("Back to this one") });
    await h.client.threads.create();
    seen.push(...(await page(10)).map((t) => t.thread_id));
    await h.client.runs.wait(ids[1], "agent", { input: human("And this one") });
    seen.push(...(await page(20)).map((t) => t.thread_id));

    expect(seen).toEqual(expected);
    // Without $as_of the same paging would have shown a moved thread twice.
    const live = await h.client.threads.search({ ...LEAN, sortBy: BY_ACTIVITY, sortOrder: "desc", limit: 3 });
    expect(live[0].thread_id).toBe(ids[1]);
  });

  it("an $as_of past the year 9999 is after every thread, as any future instant is", async () => {
    h = createHarness();
    const ids = [await titled("Far future one"), await titled("Far future two")];
    for (const asOf of ["9999-12-31T23:59:59Z", "+010000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z"]) {
      const rows = await h.client.threads.search({ ...LEAN, metadata: { $as_of: asOf } });
      expect(rows.map((t) => t.thread_id).sort(), asOf).toEqual([...ids].sort());
      expect(await h.client.threads.count({ metadata: { $as_of: asOf } } as never), asOf).toBe(2);
    }
  });

  it("rejects a malformed $as_of with 422", async () => {
    h = createHarness();
    await expect(h.client.threads.search({ metadata: { $as_of: "yesterday-ish" } })).rejects.toThrow(/422/);
  });
});

describe("threads: copy", () => {
  it("keeps the title and its source, the messages and the history", async () => {
    h = createHarness();
    const t = await h.client.threads.create({ metadata: { project: "p" } });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Copy this conversation") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "My pinned name" } });
    const copy = await h.client.threads.copy(t.thread_id);
    expect(copy.thread_id).not.toBe(t.thread_id);
    const state = await h.client.threads.getState<{ title: string; title_source: unknown; messages: unknown[] }>(copy.thread_id);
    expect(state.values.title).toBe("My pinned name");
    expect(state.values.title_source).toEqual({ kind: "user" });
    expect(state.values.messages).toHaveLength(2);
    const [row] = await h.client.threads.search({ ...LEAN, ids: [copy.thread_id] });
    expect(row.extracted).toEqual({ title: "My pinned name", title_source: { kind: "user" } });
    expect(row.metadata).toMatchObject({ project: "p" });
    const history = await h.client.threads.getHistory(copy.thread_id, { limit: 50 });
    expect(history.length).toBe((await h.client.threads.getHistory(t.thread_id, { limit: 50 })).length);
    // The source is untouched and the copy is searchable by its earlier title too.
    expect((await h.client.threads.search({ metadata: { $title_search: "copy this" } })).length).toBe(2);
  });
});
