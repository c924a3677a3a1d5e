import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS } from "./migrations";
import { createHarness, dropTestDatabase, human, testDialect, type Harness } from "../test-harness";

// A database three releases behind (schema 3, before migration 4's `starred` column, migration
// 5's activity index and migration 6's `input_owed` run column), on whichever database this pass runs (SQLite, or Postgres with
// TEST_DATABASE_URL): the next start migrates it once and keeps every thread. The release fixture (release-fixture.test.ts) covers the oldest
// SQLite files; this covers the step between versioned releases, on both dialects.
let h: Harness | undefined;
let dir: string;
afterEach(async () => {
  await h?.close();
  h = undefined;
  dropTestDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Undoes migrations 6, 5 and 4 by hand: what a database written by the release before them looks like. */
async function backToSchema3(harness: Harness) {
  const db = harness.api.q.store.exec();
  await sql`DROP INDEX tl_runs_input_owed`.execute(db);
  await sql`ALTER TABLE tl_runs DROP COLUMN input_owed`.execute(db);
  await sql`DELETE FROM tl_schema_migrations WHERE version = 6`.execute(db);
  await sql`DROP INDEX tl_thread_activity_at`.execute(db);
  await sql`DELETE FROM tl_schema_migrations WHERE version = 5`.execute(db);
  await sql`DROP INDEX tl_threads_starred_activity`.execute(db);
  await sql`ALTER TABLE tl_threads DROP COLUMN starred`.execute(db);
  await sql`DELETE FROM tl_schema_migrations WHERE version = 4`.execute(db);
}

describe(`a ${testDialect} database at schema 3`, () => {
  it("is migrated to the latest schema at start, once, keeping its threads, titles and stars", async () => {
    expect(MIGRATIONS.at(-1)?.version).toBe(6); // this test's rollback undoes exactly migrations 6, 5 and 4
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-upgrade-"));
    h = createHarness({ dir });
    const starred = (await h.client.threads.create({ metadata: { starred: true } })).thread_id;
    await h.client.runs.wait(starred, "agent", { input: human("Packing list for a week in Lisbon") });
    const plain = (await h.client.threads.create()).thread_id;
    await h.client.threads.updateState(plain, { values: { title: "Tax forms" } });
    await backToSchema3(h);
    await h.close();

    h = createHarness({ dir });
    await h.api.ready;
    const versions = await sql<{ version: number }>`SELECT version FROM tl_schema_migrations ORDER BY version`.execute(h.api.q.store.exec());
    expect(versions.rows.map((r) => Number(r.version))).toEqual([1, 2, 3, 4, 5, 6]);
    const titles = Object.fromEntries((await h.client.threads.search({ select: ["thread_id", "values"] })).map((t) => [t.thread_id, (t.values as { title?: string }).title]));
    expect(titles).toEqual({ [starred]: "Packing list for a week in Lisbon", [plain]: "Tax forms" });
    // Migration 4's column is back and means what it meant: the starred page finds the starred thread.
    const page = await h.client.threads.search({ metadata: { starred: true, $as_of: new Date(Date.now() + 60_000).toISOString() }, sortBy: "activity_at" as never, select: ["thread_id"] });
    expect(page.map((t) => t.thread_id)).toEqual([starred]);
    expect((await h.client.threads.search({ metadata: { $title_search: "lisbon" }, select: ["thread_id"] })).map((t) => t.thread_id)).toEqual([starred]);

    // Migration 5's index is back (activity-prune.test.ts checks the prune's plan uses it).
    const indexes =
      h.dialect === "postgres"
        ? await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'tl_thread_activity'`.execute(h.api.q.store.exec())
        : await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tl_thread_activity'`.execute(h.api.q.store.exec());
    expect(indexes.rows.map((r) => r.name)).toContain("tl_thread_activity_at");
    // Migration 6's column is back, and says of the old run that nothing is owed.
    const runs = await sql<{ input_owed: number | string }>`SELECT input_owed FROM tl_runs`.execute(h.api.q.store.exec());
    expect(runs.rows.map((r) => Number(r.input_owed))).toEqual([0]);

    // A third start finds nothing to do.
    await h.close();
    h = createHarness({ dir });
    await h.api.ready;
    const again = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM tl_schema_migrations`.execute(h.api.q.store.exec());
    expect(Number(again.rows[0].n)).toBe(6);
  });
});
