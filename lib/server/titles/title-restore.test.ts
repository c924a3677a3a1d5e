import { afterEach, describe, expect, it } from "vitest";
import type { ModelTitler } from "@/lib/agent/title-model";
import { DEFAULT_TITLE_CONFIG, type TitleSource } from "@/lib/title";
import { ScriptedModel, createHarness, human, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => h?.close());

type Source = TitleSource;
type TitleValues = { title: string | null; title_source: Source | null };
const MODEL: Source = { kind: "model", model: "openai:gpt-4o-mini" };
const USER: Source = { kind: "user" };

async function post(path: string, body: unknown) {
  const res = await h.fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const restore = (threadId: string, body: unknown) => post(`/threads/${threadId}/title/restore`, body);

async function current(threadId: string) {
  const state = await h.client.threads.getState<TitleValues>(threadId);
  const [row] = await h.client.threads.search({ select: ["thread_id"], extract: { title: "values.title", title_source: "values.title_source" }, ids: [threadId] });
  return { state: { title: state.values.title, title_source: state.values.title_source }, listed: row.extracted };
}

/** A thread titled by a (scripted) title model; no instant fallback title in between. */
async function modelTitledThread() {
  const titler: ModelTitler = { modelId: MODEL.model!, needsAssistant: false, request: async () => ({ ok: true, title: "Tidal physics", source: MODEL }) };
  h = createHarness({ titleConfig: { ...DEFAULT_TITLE_CONFIG, instant: false }, titler });
  const t = await h.client.threads.create();
  await h.client.runs.wait(t.thread_id, "agent", { input: human("How do tides work") });
  expect((await current(t.thread_id)).state).toEqual({ title: "Tidal physics", title_source: MODEL });
  return t.thread_id;
}

describe("POST /threads/:id/title/restore", () => {
  it("undoing a rename puts back the model title with its model and unpins the thread", async () => {
    const id = await modelTitledThread();
    await h.client.threads.updateState(id, { values: { title: "Tides" } });
    const res = await restore(id, { title: "Tidal physics", title_source: MODEL, expected: { title: "Tides", title_source: USER } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "Tidal physics", title_source: MODEL });
    expect((res.body.checkpoint as { checkpoint_id?: string }).checkpoint_id).toBeTruthy();
    const both = { title: "Tidal physics", title_source: MODEL };
    expect(await current(id)).toEqual({ state: both, listed: both });
    expect(await h.api.registry.readPin(id)).toBeNull();
  });

  it("undo to the fallback unpins: a later automatic title may replace it again", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Plan a garden") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Garden" } });
    const res = await restore(t.thread_id, { title: "Plan a garden", title_source: { kind: "fallback" } });
    expect(res).toMatchObject({ status: 200, body: { title: "Plan a garden", title_source: { kind: "fallback" } } });
    expect(await h.api.registry.readPin(t.thread_id)).toBeNull();
    // The run-values projection refuses an automatic title over a pin; after the undo it takes one.
    await h.api.registry.projectValues(t.thread_id, { title: "Garden planning", title_source: MODEL });
    expect((await current(t.thread_id)).listed).toEqual({ title: "Garden planning", title_source: MODEL });
    // And the explicit regenerate still works on the unpinned thread.
    expect((await post(`/threads/${t.thread_id}/title/regenerate`, {})).body).toEqual({ title: "Plan a garden", title_source: { kind: "fallback" } });
  });

  it("restoring an earlier user title keeps it pinned", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Plan a garden") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Garden" } });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Vegetable garden" } });
    expect((await restore(t.thread_id, { title: "Garden", title_source: USER })).status).toBe(200);
    expect(await h.api.registry.readPin(t.thread_id)).toEqual({ title: "Garden", source: USER });
  });

  it("refuses a (title, source) pair the history never had with 422, and changes nothing", async () => {
    const id = await modelTitledThread();
    await h.client.threads.updateState(id, { values: { title: "Tides" } });
    const forged = [
      { title: "Tides", title_source: MODEL }, // a user title relabelled as the model's
      { title: "Tidal physics", title_source: { kind: "model", model: "other:model" } },
      { title: "Tidal physics", title_source: { kind: "fallback" } },
      { title: "Never seen", title_source: USER },
    ];
    for (const body of forged) {
      const res = await restore(id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail).toMatch(/^title-restore-unknown: /);
    }
    for (const body of [{}, { title: "" , title_source: USER }, { title: "Tides", title_source: { kind: "robot" } }, { title: 7, title_source: USER }]) {
      expect((await restore(id, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await current(id)).state).toEqual({ title: "Tides", title_source: USER });
  });

  it("is 409 when the title changed since the client looked (expected), 409 while busy, 404 for an unknown thread", async () => {
    h = createHarness({ model: new ScriptedModel(["tok ".repeat(50)], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Plan a garden") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Garden" } });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Roses" } });
    const undo = { title: "Plan a garden", title_source: { kind: "fallback" }, expected: { title: "Garden", title_source: USER } };
    expect(await restore(t.thread_id, undo)).toMatchObject({ status: 409, body: { detail: expect.stringMatching(/^title-changed: /) } });

    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Busy now") });
    expect((await restore(t.thread_id, { ...undo, expected: undefined })).status).toBe(409);
    await h.client.runs.join(t.thread_id, run.run_id);
    expect((await restore(t.thread_id, { ...undo, expected: undefined })).status).toBe(200);

    expect((await restore("no-such-thread", undo)).status).toBe(404);
  });
});
