import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { openRenameJournal, type RenameJournal } from "../store/rename-journal";
import { PendingRenames, SLOW_AFTER_MS, SLOW_RETRY_MS } from "./pending-renames";
import type { UpstreamFetch } from "./upstream";

// The upstream here is a scripted LangGraph server (state writes answered 409 while "busy"), so
// the interleavings that a real server makes rare can be forced. The real one: forward-langgraph-dev.test.ts.
let dir: string;
let journal: RenameJournal;
let silenced: MockInstance<typeof console.error> | undefined;
/** Every PendingRenames a test makes: their loops are stopped before the journal closes. */
const made: PendingRenames[] = [];
class TestRenames extends PendingRenames {
  constructor(...args: ConstructorParameters<typeof PendingRenames>) {
    super(...args);
    made.push(this);
  }
}
afterEach(async () => {
  await Promise.all(made.splice(0).map((r) => r.close()));
  journal?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A journal on a file of its own, removed after the test. */
function openTestJournal(): RenameJournal {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tl-renames-"));
  return openRenameJournal(path.join(dir, "j.sqlite"));
}

function scriptedUpstream() {
  const writes: string[] = [];
  let busy = true;
  let holdNext: ((release: () => void) => void) | null = null;
  const failures: number[] = [];
  let gone = false;
  let goneAfterBusy = false;
  const upstream: UpstreamFetch = async (p, init) => {
    // A deleted thread: every route of it answers 404, its runs list included.
    if (gone) return new Response('{"detail":"Thread not found"}', { status: 404 });
    if (p.endsWith("/state") && init.method === "POST") {
      const title = (JSON.parse(String(init.body)) as { values: { title: string } }).values.title;
      if (busy) {
        if (goneAfterBusy) gone = true; // deleted while the run went on: the next request finds it gone
        return new Response('{"detail":"Thread is busy"}', { status: 409 });
      }
      const failure = failures.shift();
      if (failure) return new Response("<html>Bad gateway</html>", { status: failure });
      if (holdNext) {
        const hold = holdNext;
        holdNext = null;
        await new Promise<void>((r) => hold(r));
      }
      writes.push(title);
      return Response.json({ checkpoint: {} });
    }
    if (p.includes("/runs?")) return Response.json([]);
    return Response.json({});
  };
  return {
    upstream,
    writes,
    idle: () => (busy = false),
    holdNextWrite: (fn: (release: () => void) => void) => (holdNext = fn),
    failNextWrites: (...statuses: number[]) => failures.push(...statuses),
    /** The thread is deleted right after the next "busy" answer to a write. */
    deleteAfterNextBusyWrite: () => (goneAfterBusy = true),
  };
}

describe("pending renames", () => {
  it("a newer rename that arrives while the older one is being written is written too: the last word wins", async () => {
    journal = openTestJournal();
    const up = scriptedUpstream();
    const renames = new TestRenames(up.upstream, journal);
    const first = await renames.rename("t1", { title: "First", title_source: { kind: "user" } }, null);
    expect(await first.json()).toMatchObject({ title: "First", pending: true });
    expect(journal.all()).toEqual([{ threadId: "t1", title: "First", who: null }]);
    let release!: () => void;
    const held = new Promise<void>((r) => up.holdNextWrite((rel) => ((release = rel), r())));
    up.idle();
    await held; // "First" is on its way upstream…
    await renames.rename("t1", { title: "Second", title_source: { kind: "user" } }, null);
    expect(journal.all().map((e) => e.title)).toEqual(["Second"]);
    release();
    expect(await renames.settled("t1")).toBe(true);
    expect(up.writes).toEqual(["First", "Second"]);
    expect(journal.all()).toEqual([]);
  });

  it("a 5xx or 429 from the server (or a proxy before it) is retried, not taken as a refusal: the rename is written", async () => {
    journal = openTestJournal();
    const up = scriptedUpstream();
    const renames = new TestRenames(up.upstream, journal);
    const answer = await renames.rename("t3", { title: "Kept", title_source: { kind: "user" } }, null);
    expect(await answer.json()).toMatchObject({ pending: true });
    up.failNextWrites(502, 429);
    up.idle();
    expect(await renames.settled("t3")).toBe(true);
    expect(up.writes).toEqual(["Kept"]);
    expect(journal.all()).toEqual([]);
  }, 15_000);

  it("resume takes up what a previous process left in the journal, and forgets it once written", async () => {
    journal = openTestJournal();
    journal.put({ threadId: "t2", title: "Left behind", who: { identity: "u1", permissions: [] } });
    const up = scriptedUpstream();
    up.idle();
    const renames = new TestRenames(up.upstream, journal);
    expect(renames.resume()).toBe(1);
    expect(renames.pendingFor("t2")).toEqual({ title: "Left behind", title_source: { kind: "user" } });
    expect(await renames.settled("t2")).toBe(true);
    expect(up.writes).toEqual(["Left behind"]);
    expect(journal.all()).toEqual([]);
  });

  it("is never given up while the server lives: past 30 minutes busy it is tried every 30 s, still shown and kept, and written once the thread is free", async () => {
    vi.useFakeTimers();
    try {
      journal = openTestJournal();
      const up = scriptedUpstream();
      let requests = 0;
      const counted: UpstreamFetch = (p, init, who) => (requests++, up.upstream(p, init, who));
      const renames = new TestRenames(counted, journal);
      silenced = vi.spyOn(console, "error").mockImplementation(() => undefined);
      expect(await (await renames.rename("t1", { title: "Mine", title_source: { kind: "user" } }, null)).json()).toMatchObject({ pending: true });
      let settled: boolean | null = null;
      void renames.settled("t1").then((ok) => (settled = ok));

      await vi.advanceTimersByTimeAsync(SLOW_AFTER_MS - 60_000);
      const beforeSlow = requests;
      expect(beforeSlow).toBeGreaterThan(1000); // while young: tried as soon as each look finds no run
      await vi.advanceTimersByTimeAsync(2 * 60_000);
      const slowFrom = requests;
      await vi.advanceTimersByTimeAsync(20 * 60_000);
      // Every 30 s then: a look at the runs and a write, each time.
      const perTry = 2;
      expect(requests - slowFrom).toBeGreaterThanOrEqual(((20 * 60_000) / SLOW_RETRY_MS - 1) * perTry);
      expect(requests - slowFrom).toBeLessThanOrEqual(((20 * 60_000) / SLOW_RETRY_MS + 1) * perTry);
      expect(settled).toBeNull();
      expect(renames.pendingFor("t1")).toEqual({ title: "Mine", title_source: { kind: "user" } });
      expect(journal.all().map((e) => e.title)).toEqual(["Mine"]);
      expect(silenced.mock.calls.filter(([m]) => String(m).includes("still waiting"))).toHaveLength(1);

      up.idle();
      await vi.advanceTimersByTimeAsync(SLOW_RETRY_MS + 1000);
      expect(settled).toBe(true);
      expect(up.writes).toEqual(["Mine"]);
      expect(journal.all()).toEqual([]);
    } finally {
      silenced?.mockRestore();
      vi.useRealTimers();
    }
  });

  it("a newer rename made after 30 minutes of waiting is tried at once, not after the slow pause", async () => {
    vi.useFakeTimers();
    try {
      journal = openTestJournal();
      const up = scriptedUpstream();
      const renames = new TestRenames(up.upstream, journal);
      silenced = vi.spyOn(console, "error").mockImplementation(() => undefined);
      await renames.rename("t1", { title: "First", title_source: { kind: "user" } }, null);
      await vi.advanceTimersByTimeAsync(SLOW_AFTER_MS + 1000);
      // Mid-pause: the thread is free now, and the user renames it again.
      await vi.advanceTimersByTimeAsync(SLOW_RETRY_MS / 3);
      up.idle();
      await renames.rename("t1", { title: "Second", title_source: { kind: "user" } }, null);
      await vi.advanceTimersByTimeAsync(1000);
      expect(up.writes).toEqual(["Second"]);
      expect(await renames.settled("t1")).toBe(true);
      expect(journal.all()).toEqual([]);
    } finally {
      silenced?.mockRestore();
      vi.useRealTimers();
    }
  });

  it("a thread deleted while its rename waits: the runs list's 404 does not hold it back, the write's 404 drops it", async () => {
    journal = openTestJournal();
    const up = scriptedUpstream();
    const renames = new TestRenames(up.upstream, journal);
    silenced = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await renames.rename("t1", { title: "Mine", title_source: { kind: "user" } }, null);
      // The waiting loop's next write is answered busy, and then the thread is gone: the loop's
      // next step is a runs list that answers 404.
      up.deleteAfterNextBusyWrite();
      expect(await renames.settled("t1")).toBe(false);
      expect(renames.pendingFor("t1")).toBeNull();
      expect(journal.all()).toEqual([]);
      expect(renames.resume()).toBe(0);
    } finally {
      silenced?.mockRestore();
    }
  });

  it("close stops a waiting loop, even mid-join: nothing is asked after it, and the rename stays in the journal for the next start", async () => {
    journal = openTestJournal();
    let requests = 0;
    let joins = 0;
    const busyForever: UpstreamFetch = (p, init) => {
      requests++;
      if (p.endsWith("/state")) return Promise.resolve(new Response('{"detail":"Thread is busy"}', { status: 409 }));
      if (p.includes("/runs?")) return Promise.resolve(Response.json([{ run_id: "r1", status: "running" }]));
      joins++;
      // A run that never ends: its join answers only when the request is aborted, as fetch does.
      return new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    };
    const renames = new TestRenames(busyForever, journal);
    await renames.rename("t1", { title: "Mine", title_source: { kind: "user" } }, null);
    const settled = renames.settled("t1");
    await vi.waitFor(() => expect(joins).toBe(1));
    await renames.close();
    expect(await settled).toBe(false);
    const asked = requests;
    await new Promise((r) => setTimeout(r, 400));
    expect(requests).toBe(asked);
    expect(renames.size).toBe(0);
    expect(journal.all().map((e) => e.title)).toEqual(["Mine"]);

    // A rename after close is written if it can be, else journalled: no loop starts.
    expect(await (await renames.rename("t2", { title: "Late", title_source: { kind: "user" } }, null)).json()).toMatchObject({ pending: true });
    await new Promise((r) => setTimeout(r, 400));
    expect(requests).toBe(asked + 1);
    expect(journal.all().map((e) => e.title).sort()).toEqual(["Late", "Mine"]);

    // The next start takes both up and writes them once the threads are free.
    const up = scriptedUpstream();
    up.idle();
    const next = new TestRenames(up.upstream, journal);
    expect(next.resume()).toBe(2);
    expect(await next.settled("t1")).toBe(true);
    expect(await next.settled("t2")).toBe(true);
    expect(up.writes.sort()).toEqual(["Late", "Mine"]);
    expect(journal.all()).toEqual([]);
  });

  it("close stops a loop in its pause too, at once", async () => {
    journal = openTestJournal();
    const up = scriptedUpstream();
    let requests = 0;
    const renames = new TestRenames((p, init, who) => (requests++, up.upstream(p, init, who)), journal);
    await renames.rename("t1", { title: "Mine", title_source: { kind: "user" } }, null);
    // Busy with no run listed: the loop pauses 200 ms between looks.
    await vi.waitFor(() => expect(requests).toBeGreaterThanOrEqual(3));
    const started = performance.now();
    await renames.close();
    expect(performance.now() - started).toBeLessThan(150);
    const asked = requests;
    await new Promise((r) => setTimeout(r, 400));
    expect(requests).toBe(asked);
    expect(journal.all().map((e) => e.title)).toEqual(["Mine"]);
  });

  it("close that lands while a failed write is being answered stops the loop at once, not after the pause that failure would take", async () => {
    journal = openTestJournal();
    let writes = 0;
    let closedAt = 0;
    let closing: Promise<void> | null = null;
    const upstream: UpstreamFetch = async (p, init) => {
      if (p.endsWith("/state") && init.method === "POST") {
        if (++writes === 1) return new Response('{"detail":"Thread is busy"}', { status: 409 });
        // The loop's write: the server goes away while answering it.
        closedAt = performance.now();
        closing = renames.close();
        return new Response("<html>Bad gateway</html>", { status: 502 });
      }
      if (p.includes("/runs?")) return Response.json([]);
      return Response.json({});
    };
    const renames: PendingRenames = new TestRenames(upstream, journal);
    silenced = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await renames.rename("t1", { title: "Mine", title_source: { kind: "user" } }, null);
      await vi.waitFor(() => expect(closing).not.toBeNull());
      await closing;
      // A 502 is followed by a 1 s pause; the stop cuts it to nothing.
      expect(performance.now() - closedAt).toBeLessThan(500);
      expect(writes).toBe(2);
      expect(journal.all().map((e) => e.title)).toEqual(["Mine"]);
    } finally {
      silenced?.mockRestore();
    }
  });

  it("a waiting rename shows in list rows whichever way they carry the title: `extracted` or `values`", async () => {
    journal = openTestJournal();
    const renames = new TestRenames(scriptedUpstream().upstream, journal);
    await renames.rename("t1", { title: "Mine", title_source: { kind: "user" } }, null);
    const page = [
      { thread_id: "t1", extracted: { title: "Automatic", title_source: { kind: "fallback" } } },
      { thread_id: "t1", values: { title: "Automatic", messages: [] } },
      { thread_id: "t1" },
      { thread_id: "t2", extracted: { title: "Other" } },
    ];
    const res = await renames.overlay(Response.json(page), null);
    expect(await res.json()).toEqual([
      // A server that honoured `extract` sent no `values`: none is added.
      { thread_id: "t1", extracted: { title: "Mine", title_source: { kind: "user" } } },
      { thread_id: "t1", values: { title: "Mine", title_source: { kind: "user" }, messages: [] } },
      { thread_id: "t1", values: { title: "Mine", title_source: { kind: "user" } } },
      { thread_id: "t2", extracted: { title: "Other" } },
    ]);
  });
});
