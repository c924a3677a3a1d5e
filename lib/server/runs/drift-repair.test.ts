import { afterEach, describe, expect, it, vi } from "vitest";
import { human } from "../test-harness";
import { listedTitle, restarts } from "../restart-harness";

// Restart repair's safety net: a registry title that differs from the checkpoint's is re-synced,
// even when no mark says so; and a run whose last registry write failed leaves such a mark.
// Both dialects (in the Postgres pass too); the rows under the API are changed with `sql()`.
const servers = restarts("threadline-drift-");
const start = servers.start;
afterEach(async () => {
  await servers.cleanup();
  vi.restoreAllMocks();
});

describe("title drift between the list and the conversation's state", () => {
  it("is found and re-synced at the next start, with no mark to go on", async () => {
    const a = start();
    const t = await a.client.threads.create();
    await a.client.runs.wait(t.thread_id, "agent", { input: human("Why is the sky blue?") });
    const title = (await a.client.threads.getState<{ title: string }>(t.thread_id)).values.title;
    await a.sql(`UPDATE tl_threads SET title = NULL, title_source = NULL WHERE thread_id = '${t.thread_id}'`);
    expect(await listedTitle(a, t.thread_id)).toBeNull();
    await servers.stop();

    vi.spyOn(console, "warn").mockImplementation(() => {});
    const b = start();
    expect(await b.api.driftCheck).toBe(1);
    expect(await listedTitle(b, t.thread_id)).toBe(title);
  });

  it("a run whose final registry write fails marks the thread for re-sync", async () => {
    const a = start();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const t = await a.client.threads.create();
    const mirror = vi.spyOn(a.api.registry, "mirrorState").mockImplementationOnce(() => {
      throw new Error("disk hiccup");
    });
    await a.client.runs.wait(t.thread_id, "agent", { input: human("Why is the sky blue?") });
    expect(mirror).toHaveBeenCalled();
    expect(await a.sql(`SELECT sync_pending FROM tl_threads WHERE thread_id = '${t.thread_id}'`)).toEqual([{ sync_pending: 1 }]);
  });

  it("a thread left busy after its run was recorded as failed ends `error` at the next start", async () => {
    const a = start();
    const t = await a.client.threads.create();
    await a.client.runs.wait(t.thread_id, "agent", { input: human("Why is the sky blue?") });
    const [row] = await a.client.runs.list(t.thread_id);
    // The crash window: the run row says it failed, the thread was never released.
    await a.sql(`UPDATE tl_runs SET status = 'error' WHERE run_id = '${row.run_id}'`);
    await a.sql(`UPDATE tl_threads SET status = 'busy' WHERE thread_id = '${t.thread_id}'`);
    await servers.stop();
    const b = start();
    await b.api.ready;
    expect((await b.client.threads.get(t.thread_id)).status).toBe("error");
  });
});
