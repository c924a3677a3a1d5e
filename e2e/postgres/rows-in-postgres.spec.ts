import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { apiClient, expect, fallbackTitle, test } from "../support";

// Only under playwright.postgres.config.ts (next start with DATABASE_URL on a fresh database).
// Proves the run used Postgres: what the browser did is in that database's rows, the list the
// app serves is exactly those rows, and no SQLite file in DATA_DIR holds threads or checkpoints
// (a server that fell back to SQLite would fail every check here, not just one).
const DATABASE_URL = process.env.PG_E2E_DATABASE_URL ?? "";
const DATA_DIR = process.env.PG_E2E_DATA_DIR ?? "";

function psql(sqlText: string): string[] {
  const r = spawnSync("psql", [DATABASE_URL, "-v", "ON_ERROR_STOP=1", "-qAtc", sqlText], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr || r.error?.message}`);
  return r.stdout.split("\n").filter(Boolean);
}

function sqliteFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(sqlite|db)$/.test(f))
    .map((f) => path.join(dir, f));
}

test("the threads the browser made are rows in the Postgres database, and no SQLite file holds them", async ({ chat, sidebar }) => {
  expect(DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
  expect(DATA_DIR).not.toBe("");

  const text = "Zürich restaurants open on a Sunday evening near the old town";
  expect(fallbackTitle(text), "the first title has the word searched for below").toContain("Zürich");
  const id = await chat.startConversation(text);
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await chat.waitForAnswerToFinish();
  await sidebar.rename(id, "Sunday dinner ideas");
  await expect(sidebar.rowLock(id)).toBeVisible();
  const client = apiClient();
  await expect.poll(async () => ((await client.threads.get(id)).values as { title?: string }).title).toBe("Sunday dinner ideas");

  // The registry row and its title history, in Postgres.
  const [row] = psql(`SELECT title || '|' || title_source FROM tl_threads WHERE thread_id = '${id}'`);
  expect(row.split("|")[0]).toBe("Sunday dinner ideas");
  expect(JSON.parse(row.slice(row.indexOf("|") + 1))).toMatchObject({ kind: "user" });
  expect(psql(`SELECT title FROM tl_title_revisions WHERE thread_id = '${id}' ORDER BY id`)).toEqual([fallbackTitle(text), "Sunday dinner ideas"]);
  // The checkpointer is on Postgres too (the conversation itself, not only the list).
  expect(Number(psql(`SELECT count(*) FROM checkpoints WHERE thread_id = '${id}'`)[0])).toBeGreaterThan(0);

  // Title search through the sidebar is Postgres full-text: a folded prefix of a word of a
  // former title still finds the thread.
  await sidebar.search.fill("zuri");
  await expect(sidebar.rows).toHaveCount(1);
  await expect(sidebar.rowTitle(id)).toHaveText("Sunday dinner ideas");
  await sidebar.search.press("Escape");

  // Every thread this run's specs made is listed from those rows, and only from them.
  const listed = (await client.threads.search({ limit: 1000 })).map((t) => t.thread_id).sort();
  expect(listed).toContain(id);
  expect(psql("SELECT thread_id FROM tl_threads").sort()).toEqual(listed);

  expect(fs.existsSync(path.join(DATA_DIR, "threadline.sqlite"))).toBe(false);
  for (const file of sqliteFiles(DATA_DIR)) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('tl_threads', 'checkpoints')").all();
      expect(tables, `${file} holds no threads`).toEqual([]);
    } finally {
      db.close();
    }
  }
});
