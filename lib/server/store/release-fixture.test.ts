import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { threadConfig } from "../graph";
import { migrate } from "./migrations";
import { sqliteStore } from "./db";
import { createHarness, human, type Harness } from "../test-harness";

/** A file written by the previous release's real API (see fixtures/make-release-fixture.ts). */
const FIXTURE = path.join(__dirname, "fixtures", "release-4c03285.sqlite");
const expected = JSON.parse(fs.readFileSync(path.join(__dirname, "fixtures", "release-4c03285.expected.json"), "utf8")) as {
  ids: Record<"trip" | "cpp" | "jp" | "emoji", string>;
  titles: Record<string, string>;
};

let h: Harness | undefined;
let dir: string;
afterEach(async () => {
  await h?.close();
  h = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

const rawCount = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe("a database file from the previous release (4c03285, before versioned migrations)", () => {
  it("opens with this build, is migrated once, and keeps its threads, titles, title search and checkpoints", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-release-"));
    const file = path.join(dir, "threadline.sqlite");
    fs.copyFileSync(FIXTURE, file);
    const checkpoints = rawCount(file, "SELECT COUNT(*) AS n FROM checkpoints");
    expect(rawCount(file, "SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'tl_schema_migrations'")).toBe(0);

    h = createHarness({ dir });
    await h.api.ready;
    expect(h.db.prepare("SELECT version, name FROM tl_schema_migrations").all()).toEqual([
      { version: 1, name: "initial" },
      { version: 2, name: "owner column, activity log backfill" },
      { version: 3, name: "synced-checkpoint" },
      { version: 4, name: "starred column" },
      { version: 5, name: "activity instant index" },
      { version: 6, name: "run input owed" },
    ]);
    const listed = await h.client.threads.search({ limit: 10, select: ["thread_id", "values"] });
    expect(Object.fromEntries(listed.map((t) => [t.thread_id, (t.values as { title?: string }).title]))).toEqual(expected.titles);

    const find = async (q: string) => (await h!.client.threads.search({ metadata: { $title_search: q } })).map((t) => t.thread_id).sort();
    const { trip, cpp, jp, emoji } = expected.ids;
    expect(await find("lisbon fam")).toEqual([trip]);
    expect(await find("rvalue")).toEqual([cpp]);
    expect(await find("c++ move")).toEqual([cpp]); // its earlier title, before the rename
    expect(await find("日本語")).toEqual([jp]);
    expect(await find("🎉")).toEqual([emoji]);

    expect(h.db.prepare("SELECT COUNT(*) AS n FROM checkpoints").get()).toEqual({ n: checkpoints });
    const state = await h.api.graph.getState(threadConfig(cpp));
    expect((state.values as { messages: unknown[] }).messages).toHaveLength(4);
    // The old thread keeps working: a new run continues it and the user's rename stays.
    await h.client.runs.wait(trip, "agent", { input: human("And museums?") });
    expect((await h.client.threads.getState<{ title: string }>(trip)).values.title).toBe("Lisbon family trip");
    await h.close();
    h = undefined;

    // Opened again: nothing left to migrate.
    const db = new Database(file);
    try {
      expect(await migrate(sqliteStore(db))).toEqual([]);
    } finally {
      db.close();
    }
  });
});
