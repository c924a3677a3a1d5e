import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BaseCheckpointSaver } from "@langchain/langgraph";
import { GatedSqliteSaver } from "@/lib/agent/sqlite-gate";
import { ThreadlinePostgresSaver } from "@/lib/agent/postgres-saver";
import { threadConfig } from "../graph";
import { createHarness, human, type Harness } from "../test-harness";

// Restart's drift pass at scale: the comparison is made in SQL, so a start reads the checkpoint
// of a thread only when it may have drifted (both dialects: also in the Postgres pass).
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

describe("restart's drift pass", () => {
  it("the start-up pass reads only the checkpoints of threads that drifted (the rest are compared in SQL)", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-drift-"));
    const a = start();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const t = await a.client.threads.create();
      if (i % 2) await a.client.runs.wait(t.thread_id, "agent", { input: human(`Question number ${i} about tides`) });
      else await a.client.threads.updateState(t.thread_id, { values: { title: `Renamed thread ${i}` } });
      ids.push(t.thread_id);
    }
    const bare = (await a.client.threads.create()).thread_id; // no checkpoint at all
    // Drift of the registry alone (its title lost), and of the checkpoint alone (written behind the registry's back).
    await a.api.q.store.kysely.updateTable("tl_threads").set({ title: null, title_source: null }).where("thread_id", "=", ids[1]).execute();
    await a.api.graph.updateState(threadConfig(ids[2]), { title: "Written past the list", title_source: { kind: "user" } });
    await open.pop()!.close();

    vi.spyOn(console, "warn").mockImplementation(() => {});
    const reads: string[] = [];
    const getTuple = BaseCheckpointSaver.prototype.getTuple;
    for (const Saver of [GatedSqliteSaver, ThreadlinePostgresSaver]) {
      const original = Saver.prototype.getTuple;
      vi.spyOn(Saver.prototype, "getTuple").mockImplementation(function (this: unknown, config) {
        reads.push(String(config.configurable?.thread_id));
        return (original ?? getTuple).call(this, config);
      });
    }
    const b = start();
    expect(await b.api.driftCheck).toBe(2);
    expect(new Set(reads)).toEqual(new Set([ids[1], ids[2]]));
    expect(await listTitle(b, ids[1])).toBe("Question number 1 about tides");
    expect(await listTitle(b, ids[2])).toBe("Written past the list");
    expect(await listTitle(b, bare)).toBeNull();
    await open.pop()!.close();

    // Re-synced threads are recorded as in step: the next start reads no checkpoint.
    reads.length = 0;
    const c = start();
    expect(await c.api.driftCheck).toBe(0);
    expect(reads).toEqual([]);
  });

});
