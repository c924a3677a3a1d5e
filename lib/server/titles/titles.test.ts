import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_TITLE_CONFIG } from "@/lib/title";
import { writeTitleToCheckpoint } from "../graph";
import { ScriptedModel, collect, createHarness, human, sleep, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => h?.close());

type TitleValues = { title: string | null; title_source: { kind: string } | null; messages: unknown[] };
const LEAN = { select: ["thread_id"] as "thread_id"[], extract: { title: "values.title", title_source: "values.title_source" } };
const USER = { kind: "user" };

async function listed(threadId: string) {
  const [row] = await h.client.threads.search({ ...LEAN, ids: [threadId] });
  return row.extracted as { title: string; title_source: { kind: string } };
}

async function post(path: string, body: unknown) {
  const res = await h.fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("rename on an idle thread", () => {
  it("pins the sanitised title; a second run keeps it and makes one more model call only", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Explain monads") });
    const res = (await h.client.threads.updateState(t.thread_id, { values: { title: "  My   monads\nnotes " } })) as unknown as Record<string, unknown>;
    expect(res).toMatchObject({ title: "My monads notes", title_source: USER, pending: false });
    expect((res.checkpoint as { checkpoint_id: string }).checkpoint_id).toBeTruthy();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("And functors?") });
    expect(h.model.calls).toBe(2);
    const state = await h.client.threads.getState<TitleValues>(t.thread_id);
    expect(state.values).toMatchObject({ title: "My monads notes", title_source: USER });
    expect(state.next).toEqual([]);
    expect(await listed(t.thread_id)).toEqual({ title: "My monads notes", title_source: USER });
  });

  it("works on a thread that has never run, and leaves no pending step behind", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.threads.updateState(t.thread_id, { values: { title: "Named before the first message" } });
    const state = await h.client.threads.getState<TitleValues>(t.thread_id);
    expect(state.next).toEqual([]);
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Hello") });
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values.title).toBe("Named before the first message");
  });

  it("rejects invalid titles with 422 {detail}", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    const cases: [unknown, RegExp][] = [
      [{ values: { title: "   " } }, /^title-invalid: Title must not be empty$/],
      [{ values: { title: 42 } }, /^title-invalid: Title must be a string$/],
      [{ values: { title: "x".repeat(201) } }, /^title-invalid: .*200/],
      [{ values: { title: "ok", messages: [] } }, /^title-invalid: a rename sends only/],
      [{ values: { title_source: { kind: "user" } } }, /^title-invalid/],
    ];
    for (const [body, detail] of cases) {
      const res = await post(`/threads/${t.thread_id}/state`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toMatch(detail);
    }
  });
});

describe("a thread whose first run brings more than one user message", () => {
  it("is titled from the first one, with one model call (the answer)", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    const input = { messages: [{ type: "human", content: "Plan a week in Kyoto" }, { type: "human", content: "We travel in April" }] };
    await h.client.runs.wait(t.thread_id, "agent", { input });
    expect(h.model.calls).toBe(1);
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values).toMatchObject({ title: "Plan a week in Kyoto", title_source: { kind: "fallback" } });
    expect(await listed(t.thread_id)).toEqual({ title: "Plan a week in Kyoto", title_source: { kind: "fallback" } });
  });

  it("is titled when its messages were written before any run", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.threads.updateState(t.thread_id, { values: { messages: [{ type: "human", content: "Seeded question about bread" }] } });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("And a follow-up") });
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values).toMatchObject({ title: "Seeded question about bread", title_source: { kind: "fallback" } });
    // Titled once: the next message keeps it.
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Another one") });
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values.title).toBe("Seeded question about bread");
  });
});

describe("a branch from a checkpoint older than the rename (an edited or branched message)", () => {
  async function renamedThread() {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original question about tides") });
    const history = await h.client.threads.getHistory<TitleValues>(t.thread_id, { limit: 20 });
    await h.client.threads.updateState(t.thread_id, { values: { title: "My pinned title" } });
    // Oldest first: the input checkpoint (no title yet), …, the head before the rename (titled).
    const first = history.at(-1)!.checkpoint;
    const beforeRename = history[0].checkpoint;
    expect(history.at(-1)!.values.title ?? null).toBeNull();
    expect(history[0].values).toMatchObject({ title: "Original question about tides", title_source: { kind: "fallback" } });
    return { id: t.thread_id, first, beforeRename };
  }
  const pinned = async (id: string) => {
    const state = await h.client.threads.getState<TitleValues>(id);
    expect(state.values).toMatchObject({ title: "My pinned title", title_source: USER });
    expect(await listed(id)).toEqual({ title: "My pinned title", title_source: USER });
    expect((await h.client.threads.get<TitleValues>(id)).values).toMatchObject({ title: "My pinned title", title_source: USER });
  };

  it("a run from the first (untitled) checkpoint keeps the pin, and no automatic title is written over it", async () => {
    const { id, first } = await renamedThread();
    await h.client.runs.wait(id, "agent", { input: human("Edited question about waves"), checkpoint: first });
    await pinned(id);
    const messages = (await h.client.threads.getState<TitleValues>(id)).values.messages as { content: unknown }[];
    expect(messages[0].content).toBe("Edited question about waves");
  });

  it("a run from the titled checkpoint before the rename keeps the pin", async () => {
    const { id, beforeRename } = await renamedThread();
    await h.client.runs.wait(id, "agent", { input: human("A follow-up on a branch"), checkpoint: beforeRename });
    await pinned(id);
  });

  it("a state update from a checkpoint before the rename keeps the pin", async () => {
    const { id, beforeRename } = await renamedThread();
    await h.client.threads.updateState(id, { values: { messages: [{ type: "human", content: "Added on a branch" }] }, checkpoint: beforeRename });
    await pinned(id);
  });

  /** Renamed "Old name", a second exchange, renamed "New name": the checkpoint between the two renames holds "Old name". */
  async function renamedTwice() {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original question about tides") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Old name" } });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("And the moon?") });
    const between = (await h.client.threads.getState<TitleValues>(t.thread_id)).checkpoint;
    await h.client.threads.updateState(t.thread_id, { values: { title: "New name" } });
    return { id: t.thread_id, between };
  }
  const titledNewName = async (id: string) => {
    expect((await h.client.threads.getState<TitleValues>(id)).values).toMatchObject({ title: "New name", title_source: USER });
    expect(await listed(id)).toEqual({ title: "New name", title_source: USER });
  };

  it("a run from a checkpoint holding an earlier rename keeps the newer rename (the older one is not brought back)", async () => {
    const { id, between } = await renamedTwice();
    await h.client.runs.wait(id, "agent", { input: human("A follow-up on a branch"), checkpoint: between });
    await titledNewName(id);
    // Streamed too, and resumed with no input from there.
    await collect(h.client.runs.stream(id, "agent", { input: human("Streamed on a branch"), checkpoint: between, streamMode: ["values"] }));
    await titledNewName(id);
    await h.client.runs.wait(id, "agent", { input: null, checkpoint: between });
    await titledNewName(id);
  });

  it("a rename accepted while a branch run waits behind another run is kept", async () => {
    h = createHarness({ model: new ScriptedModel(["tok ".repeat(30)], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original question about tides") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Old name" } });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("And the moon?") });
    const between = (await h.client.threads.getState<TitleValues>(t.thread_id)).checkpoint;
    const first = await h.client.runs.create(t.thread_id, "agent", { input: human("A third question"), multitaskStrategy: "enqueue" });
    const branch = await h.client.runs.create(t.thread_id, "agent", { input: human("On a branch"), checkpoint: between, multitaskStrategy: "enqueue" });
    const renamed = (await h.client.threads.updateState(t.thread_id, { values: { title: "New name" } })) as unknown as Record<string, unknown>;
    expect(renamed.pending).toBe(true);
    await h.client.runs.join(t.thread_id, first.run_id);
    await h.client.runs.join(t.thread_id, branch.run_id);
    await titledNewName(t.thread_id);
  });

  it("a branch from before a regenerate keeps the regenerated title, unpinned (the older rename is not brought back)", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original question about tides") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Old name" } });
    const pinnedCheckpoint = (await h.client.threads.getState<TitleValues>(t.thread_id)).checkpoint;
    expect((await post(`/threads/${t.thread_id}/title/regenerate`, {})).status).toBe(200);
    const regenerated = (await h.client.threads.getState<TitleValues>(t.thread_id)).values;
    expect(regenerated.title_source).toEqual({ kind: "fallback" });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("A follow-up on a branch"), checkpoint: pinnedCheckpoint });
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values).toMatchObject({ title: regenerated.title, title_source: { kind: "fallback" } });
    expect(await listed(t.thread_id)).toEqual({ title: regenerated.title, title_source: { kind: "fallback" } });
    // A plain state update from there too.
    await h.client.threads.updateState(t.thread_id, { values: { messages: [{ type: "human", content: "Added on a branch" }] }, checkpoint: pinnedCheckpoint });
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values).toMatchObject({ title: regenerated.title, title_source: { kind: "fallback" } });
    expect(await listed(t.thread_id)).toEqual({ title: regenerated.title, title_source: { kind: "fallback" } });
  });

  it("a branch of a thread whose title is automatic takes the branch's title (nothing is pinned)", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Original question about tides") });
    const history = await h.client.threads.getHistory<TitleValues>(t.thread_id, { limit: 20 });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Edited question about waves"), checkpoint: history.at(-1)!.checkpoint });
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values).toMatchObject({ title: "Edited question about waves", title_source: { kind: "fallback" } });
    expect(await listed(t.thread_id)).toEqual({ title: "Edited question about waves", title_source: { kind: "fallback" } });
  });
});

describe("rename while the first run is streaming", () => {
  for (const instant of [true, false]) {
    it(`the user's title wins in state, search and history (instant title ${instant ? "on" : "off"})`, async () => {
      h = createHarness({
        model: new ScriptedModel(["tok ".repeat(40)], 5),
        titleConfig: { ...DEFAULT_TITLE_CONFIG, instant },
      });
      const t = await h.client.threads.create();
      const stream = h.client.runs.stream(t.thread_id, "agent", { input: human("Help me plan a garden"), streamMode: ["values", "messages-tuple"] });
      const parts: { event: string; data: unknown }[] = [];
      let renamed: Record<string, unknown> | undefined;
      for await (const part of stream) {
        parts.push(part);
        if (part.event === "messages" && !renamed) {
          renamed = (await h.client.threads.updateState(t.thread_id, { values: { title: "Garden plans" } })) as unknown as Record<string, unknown>;
          // Recorded at once: the list shows it while the run is still going.
          expect((await h.client.threads.get(t.thread_id)).status).toBe("busy");
          expect(await listed(t.thread_id)).toEqual({ title: "Garden plans", title_source: USER });
          // The thread as get and a plain search give it: its values carry the pin, not the run's title.
          const got = await h.client.threads.get<TitleValues>(t.thread_id);
          expect(got.values).toMatchObject({ title: "Garden plans", title_source: USER });
          const [found] = await h.client.threads.search<TitleValues>({ ids: [t.thread_id] });
          expect(found.values).toMatchObject({ title: "Garden plans", title_source: USER });
          // Filters and extracts on the title's source read the pin too.
          const ids = async (values: Record<string, unknown>) => (await h.client.threads.search({ ids: [t.thread_id], values })).map((r) => r.thread_id);
          expect(await ids({ title_source: USER })).toEqual([t.thread_id]);
          expect(await ids({ title_source: { kind: "fallback" } })).toEqual([]);
          expect(await ids({ title: "Garden plans", title_source: USER })).toEqual([t.thread_id]);
          const [kind] = await h.client.threads.search({ ids: [t.thread_id], select: ["thread_id"], extract: { kind: "values.title_source.kind" } } as never);
          expect((kind as unknown as { extracted: unknown }).extracted).toEqual({ kind: "user" });
        }
      }
      expect(renamed).toMatchObject({ title: "Garden plans", title_source: USER, pending: true });
      expect(h.model.calls).toBe(1);
      // The run's own values: with the instant title it was written before the rename; without it,
      // the after-model write saw the pin (readTitlePin) and wrote nothing.
      const runTitles = new Set(parts.filter((p) => p.event === "values").map((p) => (p.data as TitleValues).title));
      expect(runTitles).toEqual(new Set(instant ? [null, "Help me plan a garden"] : [null]));

      const state = await h.client.threads.getState<TitleValues>(t.thread_id);
      expect(state.values).toMatchObject({ title: "Garden plans", title_source: USER });
      expect(state.values.messages).toHaveLength(2);
      expect(await listed(t.thread_id)).toEqual({ title: "Garden plans", title_source: USER });
      const history = await h.client.threads.getHistory<TitleValues>(t.thread_id, { limit: 20 });
      expect(history[0].values).toMatchObject({ title: "Garden plans", title_source: USER });
      expect((await h.api.q.getThread(t.thread_id))?.pin_pending).toBe(0);
      // A second run keeps the pin.
      await h.client.runs.wait(t.thread_id, "agent", { input: human("More please") });
      expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values.title).toBe("Garden plans");
    });
  }

  it("a plain state update on a busy thread is 409; the rename is kept even when the run is cancelled", async () => {
    h = createHarness({ model: new ScriptedModel(["tok ".repeat(100)], 5) });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Cancel me later") });
    await sleep(40);
    expect((await post(`/threads/${t.thread_id}/state`, { values: { messages: [] } })).status).toBe(409);
    await h.client.threads.updateState(t.thread_id, { values: { title: "Survives cancel" } });
    await h.client.runs.cancel(t.thread_id, run.run_id, true);
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values).toMatchObject({ title: "Survives cancel", title_source: USER });
    expect((await post(`/threads/${t.thread_id}/state`, { values: { messages: [] }, as_node: "TitleMiddleware.after_model" })).status).toBe(200);
  });
});

describe("copy while a rename is pending", () => {
  it("the copy gets the pinned title even though the source's checkpoint does not have it yet", async () => {
    h = createHarness({ model: new ScriptedModel(["tok ".repeat(100)], 5) });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Copy me mid-run") });
    await sleep(40);
    await h.client.threads.updateState(t.thread_id, { values: { title: "Pinned mid-run" } });
    const copy = await h.client.threads.copy(t.thread_id);
    expect((await h.client.threads.getState<TitleValues>(copy.thread_id)).values).toMatchObject({ title: "Pinned mid-run", title_source: USER });
    expect(await listed(copy.thread_id)).toEqual({ title: "Pinned mid-run", title_source: USER });
    await h.client.runs.join(t.thread_id, run.run_id);
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values.title).toBe("Pinned mid-run");
  });
});

describe("regenerate and title history", () => {
  it("regenerate clears the pin and writes a fresh automatic title; history shows every revision with its source", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("How do tides work") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Tides" } });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Ocean tides" } });
    const res = await post(`/threads/${t.thread_id}/title/regenerate`, {});
    expect(res).toEqual({ status: 200, body: { title: "How do tides work", title_source: { kind: "fallback" } } });
    expect(await listed(t.thread_id)).toEqual({ title: "How do tides work", title_source: { kind: "fallback" } });
    expect(h.model.calls).toBe(1);

    const history = await h.client.threads.getHistory<TitleValues>(t.thread_id, { limit: 50 });
    const revisions: string[] = [];
    for (const s of [...history].reverse()) {
      const label = `${s.values.title}|${s.values.title_source?.kind}`;
      if (s.values.title && revisions.at(-1) !== label) revisions.push(label);
    }
    expect(revisions).toEqual(["How do tides work|fallback", "Tides|user", "Ocean tides|user", "How do tides work|fallback"]);
    // A later run may improve an automatic title again (it is no longer pinned).
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values.title_source).toEqual({ kind: "fallback" });
  });

  it("regenerate is 409 while busy, 422 without a user message, 404 for an unknown thread", async () => {
    h = createHarness({ model: new ScriptedModel(["tok ".repeat(50)], 5) });
    const t = await h.client.threads.create();
    expect((await post(`/threads/${t.thread_id}/title/regenerate`, {})).status).toBe(422);
    expect((await post(`/threads/unknown/title/regenerate`, {})).status).toBe(404);
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Busy now") });
    expect((await post(`/threads/${t.thread_id}/title/regenerate`, {})).status).toBe(409);
    await h.client.runs.join(t.thread_id, run.run_id);
    expect((await post(`/threads/${t.thread_id}/title/regenerate`, {})).status).toBe(200);
  });
});

describe("restart repair", () => {
  it("turns what a crash left (busy thread, running run, pending pin) into a consistent thread that shows the error", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Before the crash") });
    // Simulate a process that died mid-run right after a rename was accepted.
    const q = h.api.q;
    await q.insertRun({ run_id: "00000000-0000-4000-8000-000000000001", thread_id: t.thread_id, assistant_id: "agent", status: "running", created_at: new Date().toISOString(), metadata: "{}", kwargs: "{}", multitask_strategy: "reject" });
    await q.setStatus(t.thread_id, "busy");
    await h.api.registry.recordPendingPin(t.thread_id, "Pinned before crash");
    const dir = h.dir;
    await h.crash();

    h = createHarness({ dir });
    await h.api.ready;
    expect((await h.client.threads.get(t.thread_id)).status).toBe("error");
    expect((await h.client.runs.get(t.thread_id, "00000000-0000-4000-8000-000000000001")).status).toBe("error");
    const state = await h.client.threads.getState<TitleValues>(t.thread_id);
    expect(state.values).toMatchObject({ title: "Pinned before crash", title_source: USER });
    expect((await h.api.q.getThread(t.thread_id))?.pin_pending).toBe(0);
    // Its events died with the process: joining it is a 404, not an empty stream.
    await expect(collect(h.client.runs.joinStream(t.thread_id, "00000000-0000-4000-8000-000000000001"))).rejects.toThrow(/404/);
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a regenerate cut between the checkpoint and the list (sync_pending) is mirrored at the next start, not undone by the old pin", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Before the crash") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Garden" } });
    // What a regenerate that died after its checkpoint write leaves: the checkpoint has the new
    // automatic title, the list still the pin, and the write's mark.
    await h.api.q.setSyncPending(t.thread_id, true);
    await writeTitleToCheckpoint(h.api.graph, t.thread_id, "Vegetable garden plan", { kind: "model", model: "scripted" });
    const dir = h.dir;
    await h.crash();

    h = createHarness({ dir });
    await h.api.ready;
    const fact = { title: "Vegetable garden plan", title_source: { kind: "model", model: "scripted" } };
    expect((await h.client.threads.getState<TitleValues>(t.thread_id)).values).toMatchObject(fact);
    expect(await listed(t.thread_id)).toEqual(fact);
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
