import { afterEach, describe, expect, it } from "vitest";
import { STOPPED_ANSWER_KEY } from "@/lib/chat/stopped-answer";
import { ScriptedModel, createHarness, human, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => h?.close());

type Msg = { type: string; content: string; id?: string; response_metadata?: Record<string, unknown> };
type Values = { messages: Msg[]; title: string | null; title_source: { kind: string } | null };

const LONG = Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ");

/** Starts a run and reads its stream until `tokens` answer tokens arrived; returns the text seen. */
async function streamUntil(threadId: string, text: string, tokens: number, onEnough: (runId: string) => Promise<unknown>) {
  const run = await h.client.runs.create(threadId, "agent", { input: human(text), streamMode: ["messages-tuple"] });
  let seen = "";
  let count = 0;
  for await (const part of h.client.runs.joinStream(threadId, run.run_id, { lastEventId: "-1" })) {
    if (part.event !== "messages") continue;
    seen += (part.data as [Msg])[0].content;
    if (++count === tokens) await onEnough(run.run_id);
  }
  return { runId: run.run_id, seen };
}

describe("Stop keeps what was written", () => {
  it("cancel (interrupt) keeps the streamed text in state, marked stopped, and the next message continues after it", async () => {
    h = createHarness({ model: new ScriptedModel([LONG, "Second answer."], 5) });
    const t = await h.client.threads.create();
    const { runId, seen } = await streamUntil(t.thread_id, "Long answer please", 3, (rid) => h.client.runs.cancel(t.thread_id, rid, true));
    expect(seen.split(" ").length).toBeGreaterThanOrEqual(3);
    expect(seen.length).toBeLessThan(LONG.length);
    expect((await h.client.runs.get(t.thread_id, runId)).status).toBe("interrupted");

    const state = await h.client.threads.getState<Values>(t.thread_id);
    expect(state.next).toEqual([]); // no dangling step: the cut-off model call is not pending
    expect(state.values.messages.map((m) => m.type)).toEqual(["human", "ai"]);
    const kept = state.values.messages[1];
    expect(kept.content).toBe(seen);
    expect(kept.response_metadata?.[STOPPED_ANSWER_KEY]).toBe(true);
    expect(state.values.title).toBe("Long answer please");
    expect(state.values.title_source?.kind).toBe("fallback");
    expect((await h.client.threads.get(t.thread_id)).status).toBe("idle");

    const after = (await h.client.runs.wait(t.thread_id, "agent", { input: human("Go on") })) as Values;
    expect(after.messages.map((m) => [m.type, m.content])).toEqual([
      ["human", "Long answer please"],
      ["ai", seen],
      ["human", "Go on"],
      ["ai", "Second answer."],
    ]);
    expect(after.messages[3].response_metadata?.[STOPPED_ANSWER_KEY]).toBeUndefined();
    expect(after.title).toBe("Long answer please");
    expect(h.model.calls).toBe(2);
  });

  it("an interrupt from another client keeps the first run's text before the new message", async () => {
    h = createHarness({ model: new ScriptedModel([LONG, "Answer to the interruption."], 5) });
    const t = await h.client.threads.create();
    let second = "";
    const { seen } = await streamUntil(t.thread_id, "First question", 4, async () => {
      const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Interrupting"), multitaskStrategy: "interrupt" });
      second = run.run_id;
    });
    await h.client.runs.join(t.thread_id, second);
    const state = await h.client.threads.getState<Values>(t.thread_id);
    expect(state.values.messages.map((m) => [m.type, m.content])).toEqual([
      ["human", "First question"],
      ["ai", seen],
      ["human", "Interrupting"],
      ["ai", "Answer to the interruption."],
    ]);
    expect(state.values.messages[1].response_metadata?.[STOPPED_ANSWER_KEY]).toBe(true);
  });

  it("rollback still erases the run and everything it wrote", async () => {
    h = createHarness({ model: new ScriptedModel(["First answer.", LONG], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("First") });
    const before = await h.client.threads.getState<Values>(t.thread_id);
    await streamUntil(t.thread_id, "Second", 3, (rid) => h.client.runs.cancel(t.thread_id, rid, true, "rollback"));
    const after = await h.client.threads.getState<Values>(t.thread_id);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect(after.values.messages.map((m) => m.content)).toEqual(["First", "First answer."]);
  });

  it("rollback of a run that never started (waiting for a slot) keeps the thread as it was, its renamed title included", async () => {
    h = createHarness({ model: new ScriptedModel([LONG, "Unused."], 5), runLimits: { maxConcurrentRuns: 1 } });
    const busy = await h.client.threads.create();
    const t = await h.client.threads.create();
    await h.client.threads.updateState(t.thread_id, { values: { title: "Alpha" } });
    const before = await h.client.threads.getState<Values>(t.thread_id);
    await streamUntil(busy.thread_id, "Long answer please", 2, async () => {
      // The one slot is taken: this run is queued, not started, when the rollback lands.
      const queued = await h.client.runs.create(t.thread_id, "agent", { input: human("Never answered") });
      expect((await h.client.runs.get(t.thread_id, queued.run_id)).status).toBe("pending");
      await h.client.runs.cancel(t.thread_id, queued.run_id, true, "rollback");
      await h.client.runs.cancel(busy.thread_id, (await h.client.runs.list(busy.thread_id))[0].run_id, true);
    });
    const after = await h.client.threads.getState<Values>(t.thread_id);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect(after.values).toMatchObject({ title: "Alpha", title_source: { kind: "user" } });
    expect(await h.client.runs.list(t.thread_id)).toEqual([]);
  });

  it("rollback erases the run even when its aborted loop saves a checkpoint long after the cancel (a loaded machine)", async () => {
    h = createHarness({ model: new ScriptedModel(["First answer.", LONG], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("First") });
    const before = await h.client.threads.getState<Values>(t.thread_id);
    // LangGraph's loop goes on after the abort; here each save reaches the checkpointer 300 ms late,
    // far past any "quiet for a while" window, as a starved process would.
    const saver = h.saver as unknown as { put: (...a: unknown[]) => Promise<unknown> };
    const put = saver.put.bind(saver);
    let late = 0;
    saver.put = async (...a: unknown[]) => {
      await new Promise((r) => setTimeout(r, 300));
      late++;
      return put(...a);
    };
    await streamUntil(t.thread_id, "Second", 3, (rid) => h.client.runs.cancel(t.thread_id, rid, true, "rollback"));
    await new Promise((r) => setTimeout(r, 900));
    expect(late).toBeGreaterThan(0);
    const after = await h.client.threads.getState<Values>(t.thread_id);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect(after.values.messages.map((m) => m.content)).toEqual(["First", "First answer."]);
  });

  it("writes nothing when the answer was complete before the cancel landed", async () => {
    h = createHarness({ model: new ScriptedModel(["Short."], 0) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Quick") });
    const runs = await h.client.runs.list(t.thread_id);
    await h.client.runs.cancel(t.thread_id, runs[0].run_id, true);
    const state = await h.client.threads.getState<Values>(t.thread_id);
    expect(state.values.messages.map((m) => m.content)).toEqual(["Quick", "Short."]);
    expect(state.values.messages[1].response_metadata?.[STOPPED_ANSWER_KEY]).toBeUndefined();
  });
});
