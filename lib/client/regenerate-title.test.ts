import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast } from "sonner";
import { createModelTitler } from "@/lib/agent/title-model";
import { API_URL, ScriptedModel, createHarness, human, type Harness } from "@/lib/server/test-harness";
import { DEFAULT_TITLE_CONFIG } from "@/lib/title";
import { recordServerTitle } from "./live-titles";
import { getPatches } from "./row-patches";
import { regenerateThreadTitle } from "./use-title-actions";

vi.mock("sonner", () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), dismiss: vi.fn() }) }));
vi.mock("./cross-tab", () => ({ broadcast: () => undefined }));

const toastMock = vi.mocked(toast);
const USER = { kind: "user" } as const;

let h: Harness;
let titleModel: ScriptedModel;
let qc: QueryClient;

// "Let AI name this" from the browser's code against the real API, with a title model slow enough
// (two tokens, 300 ms each) for the thread to change while it is asked.
beforeEach(() => {
  titleModel = new ScriptedModel(["Porto Trip"], 300);
  const config = { ...DEFAULT_TITLE_CONFIG, timeout_ms: 5000 };
  const titler = createModelTitler({ model: titleModel, modelId: "scripted:title", config, warn: () => undefined });
  h = createHarness({ model: new ScriptedModel(["An answer."]), titleConfig: config, titler });
  qc = new QueryClient();
  vi.stubGlobal("window", { location: { origin: new URL(API_URL).origin } });
  vi.stubGlobal("fetch", (u: string | URL | Request, i?: RequestInit) => h.api.handle(new Request(u, i)));
  toastMock.error.mockClear();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await h.close();
});

/** A titled, pinned thread that this tab shows with an older pin (another device renamed it since). */
async function pinnedThreadShownStale() {
  const t = await h.client.threads.create();
  await h.client.runs.wait(t.thread_id, "agent", { input: human("Plan a trip to Porto") });
  await h.client.threads.updateState(t.thread_id, { values: { title: "Pinned elsewhere" } });
  recordServerTitle(qc, t.thread_id, { title: "Pinned here", source: USER }, { share: false, at: Date.now() - 60_000 });
  return t.thread_id;
}

/** Starts regenerate and resolves once its title call is out (`done`: wrapped, or awaiting this would wait for it). */
async function regenerateUnderWay(threadId: string): Promise<{ done: Promise<boolean> }> {
  const calls = titleModel.calls;
  const done = regenerateThreadTitle(qc, threadId);
  await vi.waitFor(() => expect(titleModel.calls).toBe(calls + 1));
  return { done };
}

const shownFact = (id: string) => getPatches(qc)[id]?.server?.fact;

describe("regenerate refused because the thread changed meanwhile", () => {
  it("a message answered meanwhile (409 thread-changed): says so and shows the title the thread has now", async () => {
    const id = await pinnedThreadShownStale();
    const { done } = await regenerateUnderWay(id);
    await h.client.runs.wait(id, "agent", { input: human("And where to eat?") });
    expect(await done).toBe(false);
    expect(toastMock.error).toHaveBeenCalledWith(expect.stringContaining("The conversation moved on meanwhile"));
    await vi.waitFor(() => expect(shownFact(id)).toEqual({ title: "Pinned elsewhere", source: USER }));
  });

  it("a rename meanwhile (409 title-changed): says so and shows that rename", async () => {
    const id = await pinnedThreadShownStale();
    const { done } = await regenerateUnderWay(id);
    await h.client.threads.updateState(id, { values: { title: "Renamed meanwhile" } });
    expect(await done).toBe(false);
    expect(toastMock.error).toHaveBeenCalledWith(expect.stringContaining("Its title was changed meanwhile"));
    await vi.waitFor(() => expect(shownFact(id)).toEqual({ title: "Renamed meanwhile", source: USER }));
  });

  it("nothing changed: the model's title replaces the pin", async () => {
    const id = await pinnedThreadShownStale();
    expect(await regenerateThreadTitle(qc, id)).toBe(true);
    expect(shownFact(id)).toMatchObject({ title: "Porto Trip", source: { kind: "model" } });
    expect(toastMock.error).not.toHaveBeenCalled();
  });
});
