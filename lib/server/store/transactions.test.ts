import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openAppAgent } from "@/lib/agent/runtime";
import { durabilityOf } from "@/lib/agent/sqlite-durability";
import { threadConfig } from "../graph";
import { ScriptedModel, createHarness, human, sleep, testDialect, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
});

/**
 * Makes every row `op` touches in `table` fail (a trigger), so the last statement of a
 * multi-statement write fails, as a crash at that point would. SQLite: a TEMP trigger on the
 * app's connection; Postgres: a trigger in the harness's own database (dropped with it).
 */
async function failOn(table: string, op: "INSERT" | "DELETE") {
  if (h.dialect === "sqlite") {
    h.db.exec(`CREATE TEMP TRIGGER fail_${table}_${op} BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`);
    return;
  }
  await h.sql(`CREATE OR REPLACE FUNCTION tl_test_injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`);
  await h.sql(`CREATE TRIGGER fail_${table}_${op} BEFORE ${op} ON ${table} FOR EACH ROW EXECUTE FUNCTION tl_test_injected_failure()`);
}
const healOn = (table: string, op: "INSERT" | "DELETE") => h.sql(`DROP TRIGGER fail_${table}_${op}${h.dialect === "postgres" ? ` ON ${table}` : ""}`);

// Ids in these statements are the server's own UUIDs. COUNT is a bigint (a string) on Postgres.
const count = async (text: string) => Number((await h.sql(text))[0].n);
const checkpointsOf = (threadId: string) => count(`SELECT COUNT(*) AS n FROM checkpoints WHERE thread_id = '${threadId}'`);
/** The checkpointer's other tables: SqliteSaver's `writes`; PostgresSaver's `checkpoint_writes` and `checkpoint_blobs`. */
const pendingWritesOf = (threadId: string) => count(`SELECT COUNT(*) AS n FROM ${h.dialect === "postgres" ? "checkpoint_writes" : "writes"} WHERE thread_id = '${threadId}'`);
const blobsOf = (threadId: string) => (h.dialect === "postgres" ? count(`SELECT COUNT(*) AS n FROM checkpoint_blobs WHERE thread_id = '${threadId}'`) : Promise.resolve(0));

describe("multi-statement writes are one transaction", () => {
  it("delete: a failure part-way leaves the thread whole (checkpoints and registry), then it deletes cleanly", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Keep me whole") });
    const before = await checkpointsOf(t.thread_id);
    const blobsBefore = await blobsOf(t.thread_id);
    expect(before).toBeGreaterThan(0);
    if (h.dialect === "postgres") expect(blobsBefore).toBeGreaterThan(0);
    await failOn("tl_runs", "DELETE");
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await h.fetch(`/threads/${t.thread_id}`, { method: "DELETE" })).status).toBe(500);
    expect(await checkpointsOf(t.thread_id)).toBe(before);
    expect(await blobsOf(t.thread_id)).toBe(blobsBefore);
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Keep me whole");
    await healOn("tl_runs", "DELETE");
    await h.client.threads.delete(t.thread_id);
    expect(await checkpointsOf(t.thread_id)).toBe(0);
    expect(await pendingWritesOf(t.thread_id)).toBe(0);
    expect(await blobsOf(t.thread_id)).toBe(0);
    expect(await h.api.q.getThread(t.thread_id)).toBeUndefined();
  });

  it("copy: a failure part-way leaves no orphan checkpoints; a whole copy has every checkpoint and write", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Copy me") });
    await failOn("tl_title_revisions", "INSERT");
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await h.fetch(`/threads/${t.thread_id}/copy`, { method: "POST" })).status).toBe(500);
    expect(await count("SELECT COUNT(DISTINCT thread_id) AS n FROM checkpoints")).toBe(1);
    if (h.dialect === "postgres") expect(await count("SELECT COUNT(DISTINCT thread_id) AS n FROM checkpoint_blobs")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM tl_threads")).toBe(1);
    await healOn("tl_title_revisions", "INSERT");
    const copy = await h.client.threads.copy(t.thread_id);
    expect(await checkpointsOf(copy.thread_id)).toBe(await checkpointsOf(t.thread_id));
    expect(await pendingWritesOf(copy.thread_id)).toBe(await pendingWritesOf(t.thread_id));
    expect(await blobsOf(copy.thread_id)).toBe(await blobsOf(t.thread_id));
    const history = await h.client.threads.getHistory(copy.thread_id, { limit: 50 });
    expect(history.every((s) => (s.metadata as { thread_id?: string }).thread_id !== t.thread_id)).toBe(true);
  });

  it("rollback: dropping the run's checkpoints and its row succeed or fail together", async () => {
    h = createHarness({ model: new ScriptedModel(["first", "w ".repeat(200)], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("First") });
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Second") });
    await sleep(60);
    const during = await checkpointsOf(t.thread_id);
    await failOn("tl_runs", "DELETE");
    vi.spyOn(console, "error").mockImplementation(() => {});
    await h.client.runs.cancel(t.thread_id, run.run_id, true, "rollback");
    // The rollback failed as a whole: the run's checkpoints are still there, and so is its row.
    expect(await checkpointsOf(t.thread_id)).toBeGreaterThanOrEqual(during);
    expect((await h.client.runs.get(t.thread_id, run.run_id)).status).toBe("interrupted");
    await healOn("tl_runs", "DELETE");
  });
});

// On SQLite the checkpointer and the registry share one connection (sqlite-gate.ts keeps the
// checkpointer's writes out of an open transaction); on Postgres they are separate pools.
describe("checkpoint writes stay out of registry transactions", () => {
  it("a checkpoint written while a registry transaction is open lands outside it: that transaction's rollback keeps it", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    const other = await h.client.threads.create();
    let opened!: () => void;
    const inside = new Promise<void>((r) => (opened = r));
    // A registry transaction that spans awaits and then fails (as one does when its last statement fails).
    const failing = h.api.q.transaction(async () => {
      await h.api.q.setMetadata(t.thread_id, JSON.stringify({ changed: true }), new Date().toISOString());
      opened();
      await sleep(100);
      throw new Error("injected failure");
    });
    await inside;
    // Another thread's checkpoint write, started while that transaction is open.
    const write = h.api.graph.updateState(threadConfig(other.thread_id), human("Written meanwhile"), "__start__");
    await expect(failing).rejects.toThrow("injected failure");
    await write;
    expect(await checkpointsOf(other.thread_id)).toBeGreaterThan(0);
    expect((await h.client.threads.get(t.thread_id)).metadata).toEqual({});
    const state = await h.client.threads.getState<{ messages: { content: string }[] }>(other.thread_id);
    expect(state.values.messages.map((m) => m.content)).toEqual(["Written meanwhile"]);
  });
});

// The SQLite file's WAL and its fsyncs; on Postgres durability is the server's own (its WAL and fsync settings).
describe.skipIf(testDialect === "postgres")("power-loss durability", () => {
  it("the app's SQLite connection is WAL with group commit, also when it reopens its file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-sync-"));
    const env = { ...process.env, DATA_DIR: dir, OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };
    (await openAppAgent(env)).db!.close();
    const app = await openAppAgent(env);
    try {
      expect(app.db!.pragma("journal_mode", { simple: true })).toBe("wal");
      // NORMAL: commits do not fsync on the event loop; the group commit below does, before any answer.
      expect(app.db!.pragma("synchronous", { simple: true })).toBe(1);
      expect(durabilityOf(app.db)).not.toBeNull();
    } finally {
      app.db!.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A harness whose WAL fsync takes 150 ms and is recorded: what was committed when it started, when it ended. */
  const slowSyncHarness = () => {
    const syncs: { file: string; changesAtStart: number; endedAt: number }[] = [];
    let totalChanges = () => 0;
    h = createHarness({
      durability: {
        syncFile: async (file) => {
          const changesAtStart = totalChanges();
          await sleep(150);
          syncs.push({ file, changesAtStart, endedAt: performance.now() });
        },
      },
    });
    const stmt = h.db.prepare("SELECT total_changes() AS n").pluck();
    totalChanges = () => Number(stmt.get());
    return { syncs, totalChanges };
  };

  it("a write is answered only after an fsync of the WAL that started once it was committed", async () => {
    const { syncs, totalChanges } = slowSyncHarness();
    const t = await h.client.threads.create();
    const before = totalChanges();
    await h.client.threads.updateState(t.thread_id, { values: { title: "Kept through a power loss" } });
    const answeredAt = performance.now();
    const written = totalChanges();
    expect(written).toBeGreaterThan(before);
    const covering = syncs.filter((s) => s.changesAtStart >= written && s.endedAt <= answeredAt);
    expect(covering.length).toBeGreaterThan(0);
    expect(covering[0].file).toBe(`${h.dbPath}-wal`);
  });

  it("a POST that only reads (search, count, history, state at a checkpoint, assistants) is answered while an fsync is pending, writing nothing; a write waits for it", async () => {
    // The WAL fsync blocks until the test releases it, once armed.
    let hold: Promise<void> | null = null;
    let release = () => {};
    let syncEntered = false;
    h = createHarness({
      durability: {
        syncFile: async () => {
          if (!hold) return;
          syncEntered = true;
          await hold;
        },
      },
    });
    const t = await h.client.threads.create();
    await h.client.threads.updateState(t.thread_id, { values: { title: "Before the slow disk" } });
    const [checkpoint] = await h.client.threads.getHistory(t.thread_id, { limit: 1 });
    const changes = h.db.prepare("SELECT total_changes() AS n").pluck();
    hold = new Promise<void>((r) => (release = r));
    try {
      let written = false;
      const write = h.client.threads.updateState(t.thread_id, { values: { title: "Waiting for the disk" } }).then(() => (written = true));
      while (!syncEntered) await sleep(5);
      const before = Number(changes.get());

      // Each of these would hang on the held fsync if it waited for it as a write does; an error
      // answer of such a route (here a 404) does not wait either.
      const reads = Promise.all([
        h.client.threads.search({ limit: 10 }),
        h.client.threads.count({}),
        h.client.threads.getHistory(t.thread_id, { limit: 2 }),
        h.client.threads.getState(t.thread_id, checkpoint.checkpoint),
        h.client.assistants.search({ limit: 10 }),
        h.fetch("/threads/no-such-thread/history", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((r) => r.status),
      ]);
      const timeout = sleep(3_000).then(() => "still waiting" as const);
      const answered = await Promise.race([reads, timeout]);
      expect(answered).not.toBe("still waiting");
      const [page, n, history, atCheckpoint, assistants, missing] = await reads;
      expect(page.map((r) => r.thread_id)).toEqual([t.thread_id]);
      expect(n).toBe(1);
      expect(history.length).toBeGreaterThan(0);
      expect((atCheckpoint.values as { title?: string }).title).toBe("Before the slow disk");
      expect(assistants.length).toBeGreaterThan(0);
      expect(missing).toBe(404);
      // They wrote nothing, so they had nothing to wait for.
      expect(Number(changes.get())).toBe(before);
      expect(written).toBe(false);

      release();
      await write;
      expect(written).toBe(true);
    } finally {
      release();
    }
  });

  it("concurrent writes share fsyncs (group commit), and each is still answered after one covering it", async () => {
    const { syncs, totalChanges } = slowSyncHarness();
    const threads = await Promise.all(Array.from({ length: 8 }, () => h.client.threads.create()));
    const synced = syncs.length;
    await Promise.all(threads.map((t, i) => h.client.threads.updateState(t.thread_id, { values: { title: `Rename ${i}` } })));
    const answeredAt = performance.now();
    // Every row any of them wrote was committed before a sync that ended before the last answer.
    const covered = Math.max(...syncs.filter((s) => s.endedAt <= answeredAt).map((s) => s.changesAtStart));
    expect(covered).toBe(totalChanges());
    expect(syncs.length - synced).toBeLessThan(8);
  });
});
