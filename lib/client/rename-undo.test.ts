import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast } from "sonner";
import type { TitleFact } from "@/lib/title";
import { API_URL, ScriptedModel, createHarness, human, type Harness } from "@/lib/server/test-harness";
import { offerRenameUndo, titleActionMark, toastTitle, undoRename, withdrawRenameUndo } from "./rename-undo";
import { recordServerTitle } from "./live-titles";
import { getPatches } from "./row-patches";
import { renameThread } from "./use-title-actions";
import { computeThreadTitle } from "./use-thread-title";

vi.mock("sonner", () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), dismiss: vi.fn() }) }));
// Other tabs are not part of this test (a real BroadcastChannel would keep the worker alive).
vi.mock("./cross-tab", () => ({ broadcast: () => undefined }));

type ToastAction = { action: { label: string; onClick: () => void } };
const toastMock = vi.mocked(toast);
const FALLBACK = { kind: "fallback" } as const;
const USER = { kind: "user" } as const;

let h: Harness;
let qc: QueryClient;
/** The restore requests the browser code sent (title/restore), in order. */
const restores: string[] = [];

// The browser code talks to the real API handler: `window.location.origin` + `fetch` point at the harness.
beforeEach(() => {
  h = createHarness();
  qc = new QueryClient();
  vi.stubGlobal("window", { location: { origin: new URL(API_URL).origin } });
  restores.length = 0;
  vi.stubGlobal("fetch", (u: string | URL | Request, i?: RequestInit) => {
    const req = new Request(u, i);
    if (req.url.endsWith("/title/restore")) restores.push(req.url);
    return h.api.handle(req);
  });
  toastMock.mockClear();
  toastMock.error.mockClear();
  toastMock.dismiss.mockClear();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await h.close();
});

async function titledThread(text: string) {
  const t = await h.client.threads.create();
  await h.client.runs.wait(t.thread_id, "agent", { input: human(text) });
  return t.thread_id;
}

async function stateFact(threadId: string): Promise<TitleFact> {
  const s = await h.client.threads.getState<{ title: string; title_source: TitleFact["source"] }>(threadId);
  return { title: s.values.title, source: s.values.title_source };
}

/** A slow model's first run on a new thread, going, its first message's title already shown. */
async function firstRunGoing() {
  await h.close();
  h = createHarness({ model: new ScriptedModel(["tok ".repeat(60)], 5) });
  const t = await h.client.threads.create();
  const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Plan a garden") });
  await vi.waitFor(async () => expect((await stateFact(t.thread_id)).title).toBe("Plan a garden"));
  recordServerTitle(qc, t.thread_id, { title: "Plan a garden", source: FALLBACK });
  return { t, run };
}

describe("rename Undo", () => {
  it("a rename offers Undo, which brings back the previous title with its original source", async () => {
    const id = await titledThread("Plan a garden");
    recordServerTitle(qc, id, { title: "Plan a garden", source: FALLBACK });
    expect(await renameThread(qc, id, "Garden")).toEqual({ ok: true, title: "Garden", undo: true });
    expect(toastMock).toHaveBeenCalledTimes(1);
    const [message, options] = toastMock.mock.calls[0] as [string, ToastAction];
    expect(message).toBe("Renamed to “Garden”");
    expect(options.action.label).toBe("Undo");

    options.action.onClick();
    await vi.waitFor(async () => expect(await stateFact(id)).toEqual({ title: "Plan a garden", source: FALLBACK }));
    await vi.waitFor(() => expect(getPatches(qc)[id]?.server?.fact).toEqual({ title: "Plan a garden", source: FALLBACK }));
    expect(toastMock.error).not.toHaveBeenCalled();
  });

  it("Undo after the title changed again is refused (409) with a message, and changes nothing", async () => {
    const id = await titledThread("Plan a garden");
    await h.client.threads.updateState(id, { values: { title: "Garden" } });
    await h.client.threads.updateState(id, { values: { title: "Roses" } });
    const ok = await undoRename(qc, id, { title: "Plan a garden", source: FALLBACK }, { title: "Garden", source: USER });
    expect(ok).toBe(false);
    expect(toastMock.error).toHaveBeenCalledWith("Couldn't undo the rename: the title was changed again since, so nothing was restored.");
    expect(await stateFact(id)).toEqual({ title: "Roses", source: USER });
  });

  it("a rename made while a run is going offers Undo too, which waits for the run to end and then brings the previous title back", async () => {
    const { t, run } = await firstRunGoing();
    expect(await renameThread(qc, t.thread_id, "Garden")).toEqual({ ok: true, title: "Garden", undo: true });
    expect(toastMock).toHaveBeenCalledTimes(1);
    const [, options] = toastMock.mock.calls[0] as [string, ToastAction];
    expect(options.action.label).toBe("Undo");

    options.action.onClick();
    // Said at once, while the run still goes; the restore is sent only once it has ended.
    await vi.waitFor(() => expect(toastMock).toHaveBeenCalledWith("The title goes back to “Plan a garden” when the answer is finished.", expect.anything()));
    expect((await h.client.runs.get(t.thread_id, run.run_id)).status).toBe("running");
    await vi.waitFor(() => expect(toastMock.dismiss).toHaveBeenCalledWith(`undo-waits:${t.thread_id}`), { timeout: 10_000 });
    expect((await h.client.runs.get(t.thread_id, run.run_id)).status).toBe("success");
    expect(toastMock.error).not.toHaveBeenCalled();
    expect(await stateFact(t.thread_id)).toEqual({ title: "Plan a garden", source: FALLBACK });
    expect((await h.client.threads.get(t.thread_id)).values).toMatchObject({ title: "Plan a garden", title_source: FALLBACK });
    expect(getPatches(qc)[t.thread_id]?.server?.fact).toEqual({ title: "Plan a garden", source: FALLBACK });
    // Sent once, after the run: not first refused while it went.
    expect(restores).toHaveLength(1);
  });

  it("Undo pressed while an answer sent after the rename streams waits for it, then brings the previous title back", async () => {
    await h.close();
    h = createHarness({ model: new ScriptedModel(["tok ".repeat(60)], 5) });
    const id = await titledThread("Plan a garden");
    recordServerTitle(qc, id, { title: "Plan a garden", source: FALLBACK });
    expect(await renameThread(qc, id, "Garden")).toEqual({ ok: true, title: "Garden", undo: true });
    const [, options] = toastMock.mock.calls[0] as [string, ToastAction];
    const run = await h.client.runs.create(id, "agent", { input: human("And roses?") });

    options.action.onClick();
    await vi.waitFor(() => expect(toastMock).toHaveBeenCalledWith("The title goes back to “Plan a garden” when the answer is finished.", expect.anything()));
    await vi.waitFor(() => expect(toastMock.dismiss).toHaveBeenCalledWith(`undo-waits:${id}`), { timeout: 10_000 });
    expect((await h.client.runs.get(id, run.run_id)).status).toBe("success");
    expect(toastMock.error).not.toHaveBeenCalled();
    expect(await stateFact(id)).toEqual({ title: "Plan a garden", source: FALLBACK });
  });

  it("Undo of a second rename made during the same run brings the first back (it never reached a checkpoint)", async () => {
    const { t, run } = await firstRunGoing();
    expect(await renameThread(qc, t.thread_id, "Garden")).toMatchObject({ ok: true, undo: true });
    expect(await renameThread(qc, t.thread_id, "Roses")).toMatchObject({ ok: true, undo: true });
    const [, options] = toastMock.mock.calls[1] as [string, ToastAction];
    options.action.onClick();
    await vi.waitFor(async () => expect((await h.client.threads.get(t.thread_id)).values).toMatchObject({ title: "Garden", title_source: USER }));
    expect((await h.client.runs.get(t.thread_id, run.run_id)).status).toBe("running");
    await h.client.runs.join(t.thread_id, run.run_id);
    await vi.waitFor(async () => expect(await stateFact(t.thread_id)).toEqual({ title: "Garden", source: USER }));
    expect(await h.client.threads.getState(t.thread_id).then((s) => (s.values as { title: string }).title)).toBe("Garden");
    expect(toastMock.error).not.toHaveBeenCalled();
    expect(restores).toHaveLength(0);
  });

  it("offers no Undo when there is nothing to go back to", () => {
    offerRenameUndo(qc, "t", { title: null, source: null }, { title: "New", source: USER });
    offerRenameUndo(qc, "t", { title: "Old", source: null }, { title: "New", source: USER });
    offerRenameUndo(qc, "t", { title: "Same", source: USER }, { title: "Same", source: USER });
    expect(toastMock).not.toHaveBeenCalled();
    offerRenameUndo(qc, "t", { title: "Same", source: FALLBACK }, { title: "Same", source: USER });
    expect(toastMock).toHaveBeenCalledTimes(1);
  });

  it("a regenerate withdraws the toast of a rename sent before it, not of one sent after it, whatever order the answers came in", () => {
    const renameSent = titleActionMark();
    const regenerateSent = titleActionMark();
    const laterRenameSent = titleActionMark();
    // Both renames answered after the regenerate was sent.
    offerRenameUndo(qc, "old", { title: "A", source: FALLBACK }, { title: "B", source: USER }, renameSent);
    offerRenameUndo(qc, "newer", { title: "A", source: FALLBACK }, { title: "C", source: USER }, laterRenameSent);
    withdrawRenameUndo("newer", regenerateSent);
    expect(toastMock.dismiss).not.toHaveBeenCalled();
    withdrawRenameUndo("old", regenerateSent);
    expect(toastMock.dismiss).toHaveBeenCalledWith("rename:old");
    // A toast already gone (closed, timed out or withdrawn) is not dismissed again.
    withdrawRenameUndo("old", titleActionMark());
    const closed = (toastMock.mock.calls[1][1] as { onAutoClose: () => void }).onAutoClose;
    closed();
    withdrawRenameUndo("newer", titleActionMark());
    expect(toastMock.dismiss).toHaveBeenCalledTimes(1);
  });
});

describe("two quick renames whose answers come back in the other order", () => {
  it("the later rename stays shown, and only it offers Undo", async () => {
    const id = await titledThread("Harp lessons");
    recordServerTitle(qc, id, { title: "Harp lessons", source: FALLBACK });
    // The first rename's answer is held until the second's has come.
    let releaseFirst = () => {};
    const firstHeld = new Promise<void>((r) => (releaseFirst = r));
    let renames = 0;
    vi.stubGlobal("fetch", async (u: string | URL | Request, i?: RequestInit) => {
      const req = new Request(u, i);
      const isRename = req.method === "POST" && req.url.endsWith(`/threads/${id}/state`);
      const res = await h.api.handle(req);
      if (isRename && ++renames === 1) await firstHeld;
      return res;
    });
    const first = renameThread(qc, id, "Harp first");
    await vi.waitFor(() => expect(renames).toBe(1));
    expect(await renameThread(qc, id, "Harp second")).toMatchObject({ ok: true, undo: true });
    releaseFirst();
    const late = await first;
    expect(computeThreadTitle(qc, id)).toMatchObject({ title: "Harp second" });
    expect(late).toMatchObject({ ok: true, undo: false });
    expect(await stateFact(id)).toEqual({ title: "Harp second", source: USER });
    expect(toastMock.mock.calls.map(([message]) => message)).toEqual(["Renamed to “Harp second”"]);
  });
});

describe("toastTitle", () => {
  it("quotes a title whole up to 60 characters, else its first 57 and an ellipsis, never splitting a character", () => {
    expect(toastTitle("Garden")).toBe("Garden");
    expect(toastTitle("x".repeat(60))).toBe("x".repeat(60));
    expect(toastTitle("x".repeat(200))).toBe(`${"x".repeat(57)}…`);
    expect(toastTitle("👨‍👩‍👧‍👦".repeat(61))).toBe(`${"👨‍👩‍👧‍👦".repeat(57)}…`);
  });
});
