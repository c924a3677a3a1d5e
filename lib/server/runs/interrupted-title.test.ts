import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_TITLE_CONFIG } from "@/lib/title";
import { threadConfig, writeTitleToCheckpoint, type AgentGraph } from "../graph";
import { nowIso } from "../store/clock";
import { titleInterruptedThread } from "./interrupted-title";
import { ScriptedModel, createHarness, dropTestDatabase, human, sleep, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => h?.close());

type Msg = { type: string; content: string };
type Values = { title: string | null; title_source: { kind: string } | null; messages: Msg[] };
const NOT_INSTANT = { ...DEFAULT_TITLE_CONFIG, instant: false };
const FALLBACK = { kind: "fallback" };

const state = async (threadId: string) => (await h.client.threads.getState<Values>(threadId)).values;
const listedTitle = async (threadId: string) => {
  const [row] = await h.client.threads.search({ select: ["thread_id"], ids: [threadId], extract: { title: "values.title" } });
  return (row.extracted as { title: string | null }).title;
};

async function until(check: () => Promise<boolean>) {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await sleep(10);
  }
  throw new Error("never happened");
}

async function untilStatus(threadId: string, runId: string, status: string) {
  for (let i = 0; i < 300; i++) {
    if ((await h.client.runs.get(threadId, runId)).status === status) return;
    await sleep(10);
  }
  throw new Error(`run never reached ${status}`);
}

/** Starts a slow first run and cancels it once its answer has started streaming. */
async function cancelMidAnswer(text: string, action: "interrupt" | "rollback" = "interrupt") {
  const t = await h.client.threads.create();
  const run = await h.client.runs.create(t.thread_id, "agent", { input: human(text) });
  await untilStatus(t.thread_id, run.run_id, "running");
  await sleep(40);
  await h.client.runs.cancel(t.thread_id, run.run_id, true, action);
  return t.thread_id;
}

describe("a first run that ends before a title was written (TITLE_INSTANT off)", () => {
  it("cancel mid-answer: the fallback title lands, and a second message keeps it", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(200), "Second answer."], 5), titleConfig: NOT_INSTANT });
    const id = await cancelMidAnswer("Why do cats purr?");
    expect(await state(id)).toMatchObject({ title: "Why do cats purr?", title_source: FALLBACK });
    expect(await listedTitle(id)).toBe("Why do cats purr?");
    await h.client.runs.wait(id, "agent", { input: human("And dogs?") });
    expect((await state(id)).title).toBe("Why do cats purr?");
  });

  it("cancel before the first step: the user's message is stored with its title, nothing is lost", async () => {
    h = createHarness({ model: new ScriptedModel(["answer"], 5), titleConfig: NOT_INSTANT });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Remember this line") });
    await h.client.runs.cancel(t.thread_id, run.run_id, true);
    const values = await state(t.thread_id);
    expect(values.messages.map((m) => [m.type, m.content])).toEqual([["human", "Remember this line"]]);
    expect(values).toMatchObject({ title: "Remember this line", title_source: FALLBACK });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Next") });
    expect((await state(t.thread_id)).messages.map((m) => m.content)).toEqual(["Remember this line", "Next", "answer"]);
  });

  it("a later message cancelled before its first step is kept too (the title stays)", async () => {
    h = createHarness({ model: new ScriptedModel(["First answer.", "w ".repeat(100)], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Opening question") });
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Follow-up I typed") });
    await h.client.runs.cancel(t.thread_id, run.run_id, true);
    const values = await state(t.thread_id);
    expect(values.messages.map((m) => m.content)).toEqual(["Opening question", "First answer.", "Follow-up I typed"]);
    expect(values.title).toBe("Opening question");
  });

  it("model error: titled, and the failed step stays pending so a retry with input null resumes it", async () => {
    h = createHarness({ model: new ScriptedModel(["__throw__", "Recovered."]), titleConfig: NOT_INSTANT });
    const t = await h.client.threads.create();
    await expect(h.client.runs.wait(t.thread_id, "agent", { input: human("Fragile question") })).rejects.toThrow(/model exploded/);
    const failed = await h.client.threads.getState<Values>(t.thread_id);
    expect(failed.values).toMatchObject({ title: "Fragile question", title_source: FALLBACK });
    expect(failed.next).toEqual(["model_request"]);
    const resumed = (await h.client.runs.wait(t.thread_id, "agent", { input: null })) as Values;
    expect(resumed.messages.map((m) => m.content)).toEqual(["Fragile question", "Recovered."]);
  });

  it("timeout (RUN_TIMEOUT_S): the run ends as timeout, the thread as error, and it is titled", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(500)], 10), titleConfig: NOT_INSTANT, runLimits: { runTimeoutMs: 150 } });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Hang forever") });
    // join and wait answer with the timeout, as for a failed run, not with the values.
    expect(await h.client.runs.join(t.thread_id, run.run_id)).toMatchObject({ __error__: { error: "TimeoutError" } });
    expect((await h.client.runs.get(t.thread_id, run.run_id)).status).toBe("timeout");
    await expect(h.client.runs.wait(t.thread_id, "agent", { input: human("Hang again"), multitaskStrategy: "enqueue" })).rejects.toThrow(/TimeoutError|RUN_TIMEOUT_S/);
    expect((await h.client.threads.get(t.thread_id)).status).toBe("error");
    expect((await state(t.thread_id)).title).toBe("Hang forever");
  });

  it("never over a pin: a rename made during the run wins over the repair", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(200)], 5), titleConfig: NOT_INSTANT });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Auto title") });
    await untilStatus(t.thread_id, run.run_id, "running");
    await h.client.threads.updateState(t.thread_id, { values: { title: "Mine" } });
    await h.client.runs.cancel(t.thread_id, run.run_id, true);
    expect(await state(t.thread_id)).toMatchObject({ title: "Mine", title_source: { kind: "user" } });
  });

  it("rollback erases the run: nothing to title", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(200)], 5), titleConfig: NOT_INSTANT });
    const id = await cancelMidAnswer("Gone", "rollback");
    const values = await state(id);
    expect(values.title ?? null).toBeNull();
    expect(values.messages ?? []).toEqual([]);
  });

  it("TITLE_ENABLED=false: no repair title", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(200)], 5), titleConfig: { ...NOT_INSTANT, enabled: false } });
    const id = await cancelMidAnswer("No titles here");
    expect((await state(id)).title).toBeNull();
  });
});

describe("queued runs cancelled before they start (nothing the user sent is lost)", () => {
  it("a queued run cancelled before it starts keeps its message, after the exchange going on before it", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(40), "Third answer."], 5) });
    const t = await h.client.threads.create();
    const first = await h.client.runs.create(t.thread_id, "agent", { input: human("First question about cats") });
    const queued = await h.client.runs.create(t.thread_id, "agent", { input: human("Queued message I typed"), multitaskStrategy: "enqueue" });
    await h.client.runs.cancel(t.thread_id, queued.run_id, true);
    expect((await h.client.runs.get(t.thread_id, queued.run_id)).status).toBe("interrupted");
    await h.client.runs.join(t.thread_id, first.run_id);
    await until(async () => (await h.client.threads.get(t.thread_id)).status === "idle");
    expect((await state(t.thread_id)).messages.map((m) => [m.type, m.content.trim()])).toEqual([
      ["human", "First question about cats"],
      ["ai", "w ".repeat(40).trim()],
      ["human", "Queued message I typed"],
    ]);
    // The next message comes after it.
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Next") });
    expect((await state(t.thread_id)).messages.map((m) => m.content.trim()).slice(2)).toEqual(["Queued message I typed", "Next", "Third answer."]);
    expect((await state(t.thread_id)).title).toBe("First question about cats");
  });

  it("an interrupting run keeps the message of the run queued before it, in its place; a rollback erases it", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(200), "Answer to the third."], 5) });
    const t = await h.client.threads.create();
    const first = await h.client.runs.create(t.thread_id, "agent", { input: human("Opening") });
    await untilStatus(t.thread_id, first.run_id, "running");
    const queued = await h.client.runs.create(t.thread_id, "agent", { input: human("Queued second"), multitaskStrategy: "enqueue" });
    const third = await h.client.runs.create(t.thread_id, "agent", { input: human("Interrupting third"), multitaskStrategy: "interrupt" });
    await h.client.runs.join(t.thread_id, third.run_id);
    expect((await h.client.runs.get(t.thread_id, queued.run_id)).status).toBe("interrupted");
    const humans = (await state(t.thread_id)).messages.filter((m) => m.type === "human").map((m) => m.content);
    expect(humans).toEqual(["Opening", "Queued second", "Interrupting third"]);

    const other = await h.client.threads.create();
    const going = await h.client.runs.create(other.thread_id, "agent", { input: human("Going") });
    await untilStatus(other.thread_id, going.run_id, "running");
    const erased = await h.client.runs.create(other.thread_id, "agent", { input: human("Rolled back"), multitaskStrategy: "enqueue" });
    await h.client.runs.cancel(other.thread_id, erased.run_id, true, "rollback");
    await h.client.runs.cancel(other.thread_id, going.run_id, true);
    await until(async () => (await h.client.threads.get(other.thread_id)).status === "idle");
    expect((await state(other.thread_id)).messages.filter((m) => m.type === "human").map((m) => m.content)).toEqual(["Going"]);
  });
});

describe("queued runs cancelled before they start: what is not written", () => {
  it("an edit (a run from an earlier checkpoint) cancelled in the queue writes nothing at the head", async () => {
    h = createHarness({ model: new ScriptedModel(["First answer.", "w ".repeat(100)], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original") });
    const [, first] = await h.client.threads.getHistory(t.thread_id, { limit: 2 });
    const going = await h.client.runs.create(t.thread_id, "agent", { input: human("Second message") });
    await untilStatus(t.thread_id, going.run_id, "running");
    const edit = await h.client.runs.create(t.thread_id, "agent", { input: human("Edited first message"), checkpoint: first.checkpoint, multitaskStrategy: "enqueue" });
    await h.client.runs.cancel(t.thread_id, edit.run_id, true);
    await h.client.runs.join(t.thread_id, going.run_id);
    await until(async () => (await h.client.threads.get(t.thread_id)).status === "idle");
    expect((await state(t.thread_id)).messages.filter((m) => m.type === "human").map((m) => m.content)).toEqual(["Original", "Second message"]);
  });

  it("a run rolled back while it waits behind a state write leaves the thread idle, not busy", async () => {
    h = createHarness({ model: new ScriptedModel(["answer"], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original") });
    let release = () => {};
    const held = h.api.runs.exclusive(t.thread_id, () => new Promise<void>((r) => (release = r)), () => undefined);
    const waiting = await h.client.runs.create(t.thread_id, "agent", { input: human("Waits"), multitaskStrategy: "enqueue" });
    await h.client.runs.cancel(t.thread_id, waiting.run_id, true, "rollback");
    release();
    await held;
    await until(async () => (await h.client.threads.get(t.thread_id)).status === "idle");
  });
});

describe("a queued run whose checkpoint a rollback erased", () => {
  it("fails without running and leaves the conversation and its title as they were", async () => {
    h = createHarness({ model: new ScriptedModel(["First answer.", "w ".repeat(200), "Never sent."], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original first message") });
    const going = await h.client.runs.create(t.thread_id, "agent", { input: human("Second message") });
    await untilStatus(t.thread_id, going.run_id, "running");
    await sleep(60);
    // A checkpoint the going run made: the branch is queued behind it.
    const [mid] = await h.client.threads.getHistory(t.thread_id, { limit: 1 });
    expect(mid.values).toMatchObject({ messages: [{}, {}, {}] });
    const branch = await h.client.runs.create(t.thread_id, "agent", { input: human("Queued branch"), checkpoint: mid.checkpoint, multitaskStrategy: "enqueue" });
    await h.client.runs.cancel(t.thread_id, going.run_id, true, "rollback");
    expect(await h.client.runs.join(t.thread_id, branch.run_id)).toMatchObject({ __error__: { message: expect.stringMatching(/no longer exists/) } });
    expect((await h.client.runs.get(t.thread_id, branch.run_id)).status).toBe("error");
    const values = await state(t.thread_id);
    expect(values.messages.map((m) => m.content)).toEqual(["Original first message", "First answer."]);
    expect(values.title).toBe("Original first message");
    expect(await listedTitle(t.thread_id)).toBe("Original first message");
    expect(h.model.calls).toBe(2);
  });
});

describe("titleInterruptedThread is stale-snapshot safe", () => {
  it("re-reads when another writer moves the thread, and then keeps that writer's title", async () => {
    h = createHarness({ titleConfig: NOT_INSTANT });
    const t = await h.client.threads.create();
    await h.api.graph.updateState(threadConfig(t.thread_id), { ...human("Racing"), title: null, title_source: null }, "TitleMiddleware.after_model");
    const graph = h.api.graph;
    let reads = 0;
    const racing: AgentGraph = {
      ...graph,
      nodes: graph.nodes,
      updateState: graph.updateState.bind(graph),
      async getState(config) {
        // Between the first read and its re-read, a user renames the thread.
        if (++reads === 2) await writeTitleToCheckpoint(graph, t.thread_id, "Renamed meanwhile", { kind: "user" });
        return graph.getState(config);
      },
    };
    const wrote = await titleInterruptedThread({ graph: racing, registry: h.api.registry, titleConfig: NOT_INSTANT }, t.thread_id, null);
    expect(wrote).toBe(false);
    expect(reads).toBe(3); // read, re-read (moved), read again (titled: stop)
    expect(await state(t.thread_id)).toMatchObject({ title: "Renamed meanwhile", title_source: { kind: "user" } });
  });
});

describe("restart repair of runs a crash killed", () => {
  /** A run row as a crash leaves it (running); its id. */
  const crashRun = async (harness: Harness, threadId: string, text: string) => {
    const runId = crypto.randomUUID();
    await harness.api.q.insertRun({
      run_id: runId,
      thread_id: threadId,
      assistant_id: "agent",
      status: "running",
      created_at: nowIso(),
      metadata: "{}",
      kwargs: JSON.stringify({ input: human(text) }),
      multitask_strategy: "reject",
    });
    return runId;
  };

  it("titles the thread from its message (stored or only in the run's input) and ends it error, not idle", async () => {
    h = createHarness({ titleConfig: NOT_INSTANT });
    const stored = await h.client.threads.create();
    await h.api.graph.updateState(threadConfig(stored.thread_id), human("Stored before the crash"), "__start__");
    await crashRun(h, stored.thread_id, "Stored before the crash");
    const unsaved = await h.client.threads.create();
    await crashRun(h, unsaved.thread_id, "Only in the run row");
    for (const id of [stored.thread_id, unsaved.thread_id]) await h.api.q.setStatus(id, "busy");
    const dir = h.dir;
    await h.crash();

    h = createHarness({ dir, titleConfig: NOT_INSTANT });
    await h.api.ready;
    for (const [id, text] of [[stored.thread_id, "Stored before the crash"], [unsaved.thread_id, "Only in the run row"]]) {
      const values = await state(id);
      expect(values).toMatchObject({ title: text, title_source: FALLBACK });
      expect(values.messages.map((m) => m.content)).toEqual([text]);
      expect(await listedTitle(id)).toBe(text);
      expect((await h.client.threads.get(id)).status).toBe("error");
    }
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes the messages of every run the crash killed, the one going and those queued behind it, in order", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Answered before") });
    const going = await crashRun(h, t.thread_id, "Going when it crashed");
    await crashRun(h, t.thread_id, "Queued behind it");
    await h.api.q.setStatus(t.thread_id, "busy");
    const dir = h.dir;
    await h.crash();

    h = createHarness({ dir });
    await h.api.ready;
    const values = await state(t.thread_id);
    expect(values.messages.filter((m) => m.type === "human").map((m) => m.content)).toEqual(["Answered before", "Going when it crashed", "Queued behind it"]);
    expect(values.title).toBe("Answered before");
    expect((await h.client.threads.get(t.thread_id)).status).toBe("error");
    // Joined after the restart, the dead run answers with its error (its row), not the values.
    expect(await h.client.runs.join(t.thread_id, going)).toMatchObject({ __error__: { error: "Error", message: "The server restarted before this run finished" } });
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes the message of a queued run cancelled before it started when the crash came before the run ahead of it ended", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(400)], 20) });
    const t = await h.client.threads.create();
    const first = await h.client.runs.create(t.thread_id, "agent", { input: human("Question going when it crashed") });
    await untilStatus(t.thread_id, first.run_id, "running");
    const queued = await h.client.runs.create(t.thread_id, "agent", { input: human("Queued, then cancelled"), multitaskStrategy: "enqueue" });
    await h.client.runs.cancel(t.thread_id, queued.run_id, true);
    expect((await h.client.runs.get(t.thread_id, queued.run_id)).status).toBe("interrupted");
    expect((await h.client.runs.get(t.thread_id, first.run_id)).status, "the run ahead still going").toBe("running");
    const dir = h.dir;
    await h.crash();

    h = createHarness({ dir, model: new ScriptedModel(["Answer after the restart."], 1) });
    await h.api.ready;
    const humans = async () => (await state(t.thread_id)).messages.filter((m) => m.type === "human").map((m) => m.content);
    expect(await humans()).toEqual(["Question going when it crashed", "Queued, then cancelled"]);
    expect((await h.client.runs.get(t.thread_id, queued.run_id)).status, "its row as it was").toBe("interrupted");
    expect((await h.sql(`SELECT input_owed FROM tl_runs WHERE run_id = '${queued.run_id}'`)).map((r) => Number(r.input_owed))).toEqual([0]);
    expect((await h.client.threads.get(t.thread_id)).status).toBe("error");
    // Written once: after a later message, another restart adds nothing at the end.
    await h.client.runs.wait(t.thread_id, "agent", { input: human("A later message") });
    await h.close();
    h = createHarness({ dir });
    await h.api.ready;
    expect(await humans()).toEqual(["Question going when it crashed", "Queued, then cancelled", "A later message"]);
    await h.close();
    dropTestDatabase(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a cancelled queued run whose message was written before the restart is not written again", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-owed-"));
    h = createHarness({ dir, model: new ScriptedModel(["w ".repeat(40), "Later answer."], 5) });
    const t = await h.client.threads.create();
    const first = await h.client.runs.create(t.thread_id, "agent", { input: human("Opening") });
    await untilStatus(t.thread_id, first.run_id, "running");
    const queued = await h.client.runs.create(t.thread_id, "agent", { input: human("Queued, kept"), multitaskStrategy: "enqueue" });
    await h.client.runs.cancel(t.thread_id, queued.run_id, true);
    expect((await h.client.runs.get(t.thread_id, first.run_id)).status, "cancelled while still queued").toBe("running");
    await h.client.runs.join(t.thread_id, first.run_id);
    await until(async () => (await h.client.threads.get(t.thread_id)).status === "idle");
    expect((await h.sql(`SELECT input_owed FROM tl_runs WHERE run_id = '${queued.run_id}'`)).map((r) => Number(r.input_owed))).toEqual([0]);
    // A later message, so a message written again at restart would show at the end.
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Later") });
    await h.close();
    h = createHarness({ dir });
    await h.api.ready;
    expect((await state(t.thread_id)).messages.filter((m) => m.type === "human").map((m) => m.content)).toEqual(["Opening", "Queued, kept", "Later"]);
    expect((await h.client.threads.get(t.thread_id)).status).toBe("idle");
    await h.close();
    dropTestDatabase(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("re-syncs a registry that a crash left behind its checkpoint (rename on an idle thread)", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original") });
    // The process dies after the checkpoint write, before the registry follows.
    const registry = h.api.registry;
    vi.spyOn(registry, "mirrorState").mockImplementation(() => {
      throw new Error("crash");
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(h.client.threads.updateState(t.thread_id, { values: { title: "Renamed" } })).rejects.toThrow();
    expect((await h.api.q.getThread(t.thread_id))?.title).toBe("Original");
    const dir = h.dir;
    await h.crash();
    vi.restoreAllMocks();

    h = createHarness({ dir });
    await h.api.ready;
    expect(await listedTitle(t.thread_id)).toBe("Renamed");
    expect(await h.api.q.getThread(t.thread_id)).toMatchObject({ sync_pending: 0, pin_pending: 0, status: "idle" });
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a title the crash left only in pending writes (the step's task wrote it, its checkpoint was never stored) survives the next message", async () => {
    // rename-race seed 1229236364 on Postgres: the instant title's task writes were stored, the
    // process died before its step's checkpoint. getState shows the title (it applies pending
    // writes), but the next run with input starts from the checkpoint alone and drops them.
    h = createHarness();
    // The process dies once the title's task writes (step 0's before-agent task) and the step 0
    // checkpoint they belong to are stored, in either order (Postgres stores checkpoints behind
    // the loop): no later checkpoint lands, nor anything after that moment.
    const saver = h.saver;
    const putWrites = saver.putWrites.bind(saver);
    const put = saver.put.bind(saver);
    const stored = new Set<string>();
    let titleAt: string | null = null;
    let died = false;
    let titleWritten!: () => void;
    const dead = new Promise<void>((resolve) => (titleWritten = resolve));
    const dieOnceTitled = () => {
      if (!titleAt || !stored.has(titleAt)) return;
      died = true;
      titleWritten();
    };
    const hang = () => new Promise<never>(() => {});
    saver.putWrites = async (config, writes, taskId) => {
      if (died) return hang();
      await putWrites(config, writes, taskId);
      if (writes.some(([channel]) => channel === "title")) titleAt = String(config.configurable?.checkpoint_id);
      dieOnceTitled();
    };
    saver.put = async (config, checkpoint, metadata, versions) => {
      if (died || (metadata?.step ?? 0) >= 1) return hang();
      const out = await put(config, checkpoint, metadata, versions);
      stored.add(checkpoint.id);
      dieOnceTitled();
      return out;
    };
    const t = await h.client.threads.create();
    await h.client.runs.create(t.thread_id, "agent", { input: human("First question") });
    await dead;
    // The state the crash leaves: the title shows (pending writes applied), the checkpoint lacks it.
    const shown = await h.api.graph.getState(threadConfig(t.thread_id));
    expect(shown.values).toMatchObject({ title: "First question" });
    const own = await h.api.graph.getState(threadConfig(t.thread_id, { checkpoint_id: shown.config.configurable?.checkpoint_id }));
    expect((own.values as Values).title ?? null).toBeNull();
    const dir = h.dir;
    h.api.runs.close();
    await h.crash();

    vi.spyOn(console, "error").mockImplementation(() => {}); // the dead process's run fails against its closed connection
    h = createHarness({ dir });
    await h.api.ready;
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Second one") });
    vi.restoreAllMocks();
    const values = await state(t.thread_id);
    expect(values.messages.filter((m) => m.type === "human").map((m) => m.content)).toEqual(["First question", "Second one"]);
    expect(values).toMatchObject({ title: "First question", title_source: FALLBACK });
    expect(await listedTitle(t.thread_id)).toBe("First question");
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a settle that gives up is logged, and the owed pin is written at the next start", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(60)], 5) });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Busy thread") });
    await untilStatus(t.thread_id, run.run_id, "running");
    await h.client.threads.updateState(t.thread_id, { values: { title: "Owed pin" } });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(h.api.graph, "updateState").mockRejectedValue(new Error("disk full"));
    await h.client.runs.join(t.thread_id, run.run_id);
    expect(errors.mock.calls.some((c) => String(c[0]).includes(t.thread_id) && String(c[0]).includes("next start"))).toBe(true);
    expect(await h.api.q.getThread(t.thread_id)).toMatchObject({ pin_pending: 1, status: "idle" });
    vi.restoreAllMocks();
    const dir = h.dir;
    h.api.runs.close();
    await h.crash();

    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    h = createHarness({ dir });
    await h.api.ready;
    expect(warnings.mock.calls.some((c) => String(c[0]).includes(t.thread_id))).toBe(true);
    expect(await state(t.thread_id)).toMatchObject({ title: "Owed pin", title_source: { kind: "user" } });
    expect((await h.api.q.getThread(t.thread_id))?.pin_pending).toBe(0);
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
