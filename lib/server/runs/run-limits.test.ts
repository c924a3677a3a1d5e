import { afterEach, describe, expect, it, vi } from "vitest";
import { LiveRun } from "./live-run";
import { runStreamResponse } from "./run-stream";
import { ScriptedModel, collect, createHarness, human, sleep, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
});

type Part = { event: string; data: unknown; id?: string };

/** Fails instead of hanging when a promise never settles. */
const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, sleep(ms).then(() => Promise.reject(new Error(`still waiting after ${ms} ms`)))]);

describe("bounded memory", () => {
  it("finished runs are pruned on a timer, with no new run to trigger it, and idle lanes go too", async () => {
    h = createHarness({ runLimits: { finishedRetentionMs: 20, pruneIntervalMs: 20 } });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Prune me") });
    await h.client.runs.join(t.thread_id, run.run_id);
    expect(h.api.runs.get(run.run_id)).toBeDefined();
    await sleep(120);
    expect(h.api.runs.get(run.run_id)).toBeUndefined();
    expect(h.api.runs.sizes).toMatchObject({ runs: 0, lanes: 0, executing: 0 });
  });

  it("the per-thread lane map shrinks when a thread goes idle (after runs and after renames)", async () => {
    h = createHarness();
    for (let i = 0; i < 5; i++) {
      const t = await h.client.threads.create();
      await h.client.runs.wait(t.thread_id, "agent", { input: human(`Thread ${i}`) });
      await h.client.threads.updateState(t.thread_id, { values: { title: `Renamed ${i}` } });
    }
    expect(h.api.runs.sizes.lanes).toBe(0);
  });

  it("past the replay cap token events are dropped from the buffer but not from live subscribers; values are kept", async () => {
    h = createHarness({ model: new ScriptedModel(["tok ".repeat(300)], 0), runLimits: { maxReplayEvents: 100 } });
    const t = await h.client.threads.create();
    const live = (await collect(h.client.runs.stream(t.thread_id, "agent", { input: human("Many tokens"), streamMode: ["values", "messages-tuple"] }))) as Part[];
    expect(live.filter((p) => p.event === "messages")).toHaveLength(300);
    const runId = (live[0].data as { run_id: string }).run_id;
    const replay = (await collect(h.client.runs.joinStream(t.thread_id, runId, { lastEventId: "-1" }))) as Part[];
    expect(replay.length).toBeLessThan(110);
    expect(replay.filter((p) => p.event === "values")).toEqual(live.filter((p) => p.event === "values"));
    expect(h.api.runs.get(runId)?.droppedFromReplay).toBe(live.length - replay.length);
  });
});

describe("a finished run's replay buffer", () => {
  it("keeps the whole stream for resumes, then only what the last values snapshot does not carry", async () => {
    h = createHarness({ model: new ScriptedModel(["one two three four five six"], 0), runLimits: { fullReplayMs: 80 } });
    const t = await h.client.threads.create();
    const live = (await collect(h.client.runs.stream(t.thread_id, "agent", { input: human("Compact me"), streamMode: ["values", "messages-tuple"] }))) as Part[];
    const runId = (live[0].data as { run_id: string }).run_id;
    const tokens = live.filter((p) => p.event === "messages");
    expect(tokens.length).toBeGreaterThanOrEqual(6);
    // Inside the resume window a client that dropped after a token gets every later event.
    const midway = tokens[1].id!;
    const resumed = (await collect(h.client.runs.joinStream(t.thread_id, runId, { lastEventId: midway }))) as Part[];
    expect(resumed.map((p) => p.id)).toEqual(live.filter((p) => Number(p.id) > Number(midway)).map((p) => p.id));
    await sleep(200);
    const late = (await collect(h.client.runs.joinStream(t.thread_id, runId, { lastEventId: "-1" }))) as Part[];
    const lastValues = live.filter((p) => p.event === "values").at(-1)!;
    expect(late.map((p) => p.event)).toEqual(["metadata", "values"]);
    expect(late[1]).toEqual(lastValues);
    expect(h.api.runs.get(runId)?.compactedFromReplay).toBe(live.length - late.length);
    // Ids survive, so a resume from an old id still gets the outcome, and one from the last id nothing.
    expect((await collect(h.client.runs.joinStream(t.thread_id, runId, { lastEventId: midway }))) as Part[]).toEqual([lastValues]);
    expect(await collect(h.client.runs.joinStream(t.thread_id, runId, { lastEventId: lastValues.id }))).toEqual([]);
    expect(await h.client.runs.join(t.thread_id, runId)).toMatchObject({ title: "Compact me" });
  });

  it("compact() keeps metadata, updates, errors and whatever came after the last values snapshot", () => {
    const run = new LiveRun("r", "t", { assistant_id: "agent" } as never, ["values"]);
    const emitted = ["metadata", "values", "messages", "messages|sub", "updates", "values", "values|sub", "messages", "error"];
    for (const e of emitted) run.emit(e, { e });
    run.finish();
    run.compact();
    expect(run.events.map((e) => [e.id, e.event])).toEqual([[0, "metadata"], [4, "updates"], [5, "values"], [6, "values|sub"], [7, "messages"], [8, "error"]]);
    expect(run.compactedFromReplay).toBe(3);
    // Nothing to supersede: a run that ended before any snapshot keeps everything.
    const early = new LiveRun("r2", "t", { assistant_id: "agent" } as never, ["values"]);
    for (const e of ["metadata", "messages", "error"]) early.emit(e, {});
    early.compact();
    expect(early.events).toHaveLength(3);
  });
});

describe("bounded time and concurrency", () => {
  // The first run lasts 6 × 100 ms here (6 × 1 s in the next test): long enough that it is still
  // running when the checks read it, also on Postgres in CI, where a round trip can take tens of ms.
  it("MAX_CONCURRENT_RUNS: runs beyond the cap wait as pending, then run in order", async () => {
    h = createHarness({ model: new ScriptedModel(["a b c d e f"], 100), runLimits: { maxConcurrentRuns: 1 } });
    const [a, b] = [await h.client.threads.create(), await h.client.threads.create()];
    const first = await h.client.runs.create(a.thread_id, "agent", { input: human("First") });
    const second = await h.client.runs.create(b.thread_id, "agent", { input: human("Second") });
    await sleep(40);
    expect((await h.client.runs.get(a.thread_id, first.run_id)).status).toBe("running");
    expect((await h.client.runs.get(b.thread_id, second.run_id)).status).toBe("pending");
    expect(h.api.runs.sizes).toMatchObject({ executing: 1, waiting: 1 });
    await h.client.runs.join(b.thread_id, second.run_id);
    expect((await h.client.runs.get(a.thread_id, first.run_id)).status).toBe("success");
    expect((await h.client.runs.get(b.thread_id, second.run_id)).status).toBe("success");
    expect(h.api.runs.sizes).toMatchObject({ executing: 0, waiting: 0 });
  });

  it("a run cancelled while waiting for a slot ends at once and frees nothing it did not hold", async () => {
    h = createHarness({ model: new ScriptedModel(["a b c d e f"], 1_000), runLimits: { maxConcurrentRuns: 1 } });
    const [a, b] = [await h.client.threads.create(), await h.client.threads.create()];
    const first = await h.client.runs.create(a.thread_id, "agent", { input: human("First") });
    const queued = await h.client.runs.create(b.thread_id, "agent", { input: human("Queued") });
    await h.client.runs.cancel(b.thread_id, queued.run_id, true);
    expect((await h.client.runs.get(b.thread_id, queued.run_id)).status).toBe("interrupted");
    // The first run (6 s long) still holds the only slot; ending it frees that slot.
    expect(h.api.runs.sizes).toMatchObject({ executing: 1, waiting: 0 });
    await h.client.runs.cancel(a.thread_id, first.run_id, true);
    expect(h.api.runs.sizes.executing).toBe(0);
  });

  it("a run whose bookkeeping throws still finishes: its stream, wait and join end", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    const registry = h.api.registry;
    const real = registry.setStatus.bind(registry);
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(registry, "setStatus").mockImplementation((id, status, touch) => {
      if (status !== "busy") throw new Error("disk I/O error");
      return real(id, status, touch);
    });
    vi.spyOn(h.api.q, "setRunStatus").mockImplementation(() => {
      throw new Error("disk I/O error");
    });
    // Each ends (with the bookkeeping error as the run's error, where it surfaced) instead of hanging.
    const ended = (p: Promise<unknown>) => within(5_000, p.then(() => "ended", (e: Error) => (/still waiting/.test(e.message) ? Promise.reject(e) : "ended")));
    expect(await ended(h.client.runs.wait(t.thread_id, "agent", { input: human("Still ends") }))).toBe("ended");
    const parts = (await within(5_000, collect(h.client.runs.stream(t.thread_id, "agent", { input: human("Streams end"), multitaskStrategy: "enqueue" })))) as Part[];
    const runId = (parts[0].data as { run_id: string }).run_id;
    expect(await ended(h.client.runs.join(t.thread_id, runId))).toBe("ended");
    expect(h.api.runs.get(runId)?.finished).toBe(true);
  });
});

describe("SSE backpressure", () => {
  const run = () => new LiveRun("r", "t", { assistant_id: "agent" } as never, ["values"]);

  it("hands events over only as fast as the client reads, and cuts off a client that falls too far behind", async () => {
    const live = run();
    const res = runStreamResponse(live, { afterId: -1, resumable: false, maxQueued: 50 });
    const reader = res.body!.getReader();
    live.emit("values", { n: 0 });
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"n":0');
    for (let i = 1; i <= 40; i++) live.emit("values", { n: i });
    expect(live.subscriberCount).toBe(1);
    for (let i = 41; i <= 60; i++) live.emit("values", { n: i });
    // Too far behind: unsubscribed (the run goes on without it), and its stream ends.
    expect(live.subscriberCount).toBe(0);
    let rest = 0;
    while (!(await reader.read()).done) rest++;
    expect(rest).toBeLessThanOrEqual(2);
  });

  it("a client that keeps up receives every event in order", async () => {
    const live = run();
    const res = runStreamResponse(live, { afterId: -1, resumable: false, maxQueued: 5 });
    const text = res.text();
    for (let i = 0; i < 200; i++) {
      live.emit("values", { n: i });
      await sleep(0);
    }
    live.finish();
    const ids = [...(await text).matchAll(/\nid: (\d+)\n/g)].map((m) => Number(m[1]));
    expect(ids).toEqual([...Array(200).keys()]);
  });
});
