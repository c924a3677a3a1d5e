import { afterEach, describe, expect, it, vi } from "vitest";
import { BaseCheckpointSaver } from "@langchain/langgraph";
import { GatedSqliteSaver } from "@/lib/agent/sqlite-gate";
import { ThreadlinePostgresSaver } from "@/lib/agent/postgres-saver";
import { threadConfig } from "../graph";
import { human } from "../test-harness";
import { listedTitle, restarts } from "../restart-harness";

// Restart's drift pass at scale: the comparison is made in SQL, so a start reads the checkpoint
// of a thread only when it may have drifted (both dialects: also in the Postgres pass).
const servers = restarts("threadline-drift-");
const start = servers.start;
afterEach(async () => {
  await servers.cleanup();
  vi.restoreAllMocks();
});

describe("restart's drift pass", () => {
  it("the start-up pass reads only the checkpoints of threads that drifted (the rest are compared in SQL)", async () => {
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
    await servers.stop();

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
    expect(await listedTitle(b, ids[1])).toBe("Question number 1 about tides");
    expect(await listedTitle(b, ids[2])).toBe("Written past the list");
    expect(await listedTitle(b, bare)).toBeNull();
    await servers.stop();

    // Re-synced threads are recorded as in step: the next start reads no checkpoint.
    reads.length = 0;
    const c = start();
    expect(await c.api.driftCheck).toBe(0);
    expect(reads).toEqual([]);
  });

});
