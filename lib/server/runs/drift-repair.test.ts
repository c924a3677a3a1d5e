import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHarness, human, type Harness } from "../test-harness";

// Restart repair's safety net: a registry title that differs from the checkpoint's is re-synced,
// even when no mark says so; and a run whose last registry write failed leaves such a mark.
const open: Harness[] = [];
let dir: string;
afterEach(async () => {
  while (open.length) await open.pop()!.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

const start = () => {
  const h = createHarness({ dir });
  open.push(h);
  return h;
};
const listTitle = async (h: Harness, id: string) => {
  const rows = await h.client.threads.search({ ids: [id], select: ["thread_id"], extract: { title: "values.title" } } as never);
  return (rows[0] as unknown as { extracted?: { title?: string | null } })?.extracted?.title ?? null;
};

describe("title drift between the list and the conversation's state", () => {
  it("is found and re-synced at the next start, with no mark to go on", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-drift-"));
    const a = start();
    const t = await a.client.threads.create();
    await a.client.runs.wait(t.thread_id, "agent", { input: human("Why is the sky blue?") });
    const title = (await a.client.threads.getState<{ title: string }>(t.thread_id)).values.title;
    a.db.prepare("UPDATE tl_threads SET title = NULL, title_source = NULL WHERE thread_id = ?").run(t.thread_id);
    expect(await listTitle(a, t.thread_id)).toBeNull();
    await open.pop()!.close();

    vi.spyOn(console, "warn").mockImplementation(() => {});
    const b = start();
    expect(await b.api.driftCheck).toBe(1);
    expect(await listTitle(b, t.thread_id)).toBe(title);
  });

  it("a run whose final registry write fails marks the thread for re-sync", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-drift-"));
    const a = start();
    vi.spyOn(console, "error").mockImplementation(() => {});
    const t = await a.client.threads.create();
    const mirror = vi.spyOn(a.api.registry, "mirrorState").mockImplementationOnce(() => {
      throw new Error("disk hiccup");
    });
    await a.client.runs.wait(t.thread_id, "agent", { input: human("Why is the sky blue?") });
    expect(mirror).toHaveBeenCalled();
    expect(a.db.prepare("SELECT sync_pending FROM tl_threads WHERE thread_id = ?").get(t.thread_id)).toEqual({ sync_pending: 1 });
  });

  it("a thread left busy after its run was recorded as failed ends `error` at the next start", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-drift-"));
    const a = start();
    const t = await a.client.threads.create();
    await a.client.runs.wait(t.thread_id, "agent", { input: human("Why is the sky blue?") });
    const [row] = await a.client.runs.list(t.thread_id);
    // The crash window: the run row says it failed, the thread was never released.
    a.db.prepare("UPDATE tl_runs SET status = 'error' WHERE run_id = ?").run(row.run_id);
    a.db.prepare("UPDATE tl_threads SET status = 'busy' WHERE thread_id = ?").run(t.thread_id);
    await open.pop()!.close();
    const b = start();
    await b.api.ready;
    expect((await b.client.threads.get(t.thread_id)).status).toBe("error");
  });
});
