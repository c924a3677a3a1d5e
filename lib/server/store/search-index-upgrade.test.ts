import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createHarness, dropTestDatabase, type Harness } from "../test-harness";
import { searchTerms } from "@/lib/title/search-words";
import { SEARCH_INDEX_VERSION } from "./search-terms";
import { sidebarQuery } from "./thread-query";

/**
 * Version 2 → current, SQLite alone: a file from the build before search index version 3 (FTS5
 * `unicode61` folding raw terms) is rebuilt at start: terms stored folded, the `ascii`-tokenized
 * index over them, so the index ("narrow") and the per-row test ("broad") find the same threads,
 * accents and case folded.
 * Version 5 → current, on both databases: every revision's terms are recomputed at start.
 * Version 6 → current, on both databases: the same, for version 7's rules.
 */

let h: Harness | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-index-v2-"));
const dir5 = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-index-v5-"));
const dir6 = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-index-v6-"));
afterAll(async () => {
  await h?.close();
  dropTestDatabase(dir5);
  dropTestDatabase(dir6);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(dir5, { recursive: true, force: true });
  fs.rmSync(dir6, { recursive: true, force: true });
});

describe("search index version 2 → current", () => {
  it.skipIf(process.env.TEST_DATABASE_URL)("rebuilds the index and the stored terms at start", async () => {
    h = createHarness({ dir });
    await h.api.ready;
    await h.api.q.insertThread({ thread_id: "th-cafe", at: "2026-01-01T00:00:00.000Z", metadata: "{}", title: "Café Über C++", title_source: '{"kind":"user"}' });
    await h.api.q.insertThread({ thread_id: "th-zh", at: "2026-01-01T00:00:00.000Z", metadata: "{}", title: "Straße 机器学习 src/lib/x.py", title_source: '{"kind":"user"}' });
    // Put the file back the way version 2 left it: raw terms, the unicode61 index over them.
    await h.sql("UPDATE tl_title_revisions SET terms = 'Café Über C++' WHERE thread_id = 'th-cafe'");
    await h.sql("UPDATE tl_title_revisions SET terms = 'Straße 机器学习 src/lib/x.py' WHERE thread_id = 'th-zh'");
    await h.sql("DROP TABLE tl_title_fts");
    await h.sql(`CREATE VIRTUAL TABLE tl_title_fts USING fts5(terms, content='tl_title_revisions', content_rowid='id', tokenize="unicode61 remove_diacritics 2 categories 'L* N* M* S* P* C*'")`);
    await h.sql("INSERT INTO tl_title_fts (tl_title_fts) VALUES ('rebuild')");
    await h.sql("UPDATE tl_meta SET value = '2' WHERE key = 'search_index_version'");
    await h.close();

    h = createHarness({ dir });
    await h.api.ready;
    expect(await h.sql("SELECT value FROM tl_meta WHERE key = 'search_index_version'")).toEqual([{ value: String(SEARCH_INDEX_VERSION) }]);
    expect(await h.sql("SELECT terms FROM tl_title_revisions WHERE thread_id = 'th-cafe'")).toEqual([{ terms: "cafe uber c++ c" }]);
    const [fts] = await h.sql("SELECT sql FROM sqlite_master WHERE name = 'tl_title_fts'");
    expect(String(fts.sql)).toContain("ascii");
    for (const text of ["CAFE", "über c+", "caf UB"]) {
      for (const plan of ["narrow", "broad"] as const) {
        const rows = await h.api.q.searchThreads(sidebarQuery("2026-02-01T00:00:00.000Z", { titleSearch: text }), plan);
        expect(rows.map((r) => r.thread_id), `${plan} ${text}`).toEqual(["th-cafe"]);
      }
    }
    // Later versions' rules reach old titles too: ß folds, unspaced text is found from any
    // character (4), a word's rest after punctuation is found (5).
    for (const text of ["strasse", "学习", "lib/x.py"]) {
      for (const plan of ["narrow", "broad"] as const) {
        const rows = await h.api.q.searchThreads(sidebarQuery("2026-02-01T00:00:00.000Z", { titleSearch: text }), plan);
        expect(rows.map((r) => r.thread_id), `${plan} ${text}`).toEqual(["th-zh"]);
      }
    }
  });
});

/**
 * A database left by search index `version`: `titles` inserted, then their terms put back as that
 * version stored them (`stale`), checked to miss `staleMiss` (so the checks after can fail); then
 * the server restarted on it. Returns the search over both plans, on the restarted server.
 */
async function restartedFrom(version: number, dir: string, titles: Record<string, string>, stale: Record<string, string>, staleMiss: string) {
  await h?.close();
  h = createHarness({ dir });
  await h.api.ready;
  for (const [thread_id, title] of Object.entries(titles)) {
    await h.api.q.insertThread({ thread_id, at: "2026-01-01T00:00:00.000Z", metadata: "{}", title, title_source: '{"kind":"user"}' });
  }
  for (const [thread_id, terms] of Object.entries(stale)) await h.sql(`UPDATE tl_title_revisions SET terms = '${terms}' WHERE thread_id = '${thread_id}'`);
  // (Postgres's tsvector follows the column; FTS5 over an external content table is rebuilt.)
  if (h.dialect === "sqlite") await h.sql("INSERT INTO tl_title_fts (tl_title_fts) VALUES ('rebuild')");
  await h.sql(`UPDATE tl_meta SET value = '${version}' WHERE key = 'search_index_version'`);
  const find = async (text: string, plan: "narrow" | "broad") =>
    (await h!.api.q.searchThreads(sidebarQuery("2026-02-01T00:00:00.000Z", { titleSearch: text }), plan)).map((r) => r.thread_id);
  for (const plan of ["narrow", "broad"] as const) expect(await find(staleMiss, plan), plan).toEqual([]);
  await h.close();

  h = createHarness({ dir });
  await h.api.ready;
  expect(await h.sql("SELECT value FROM tl_meta WHERE key = 'search_index_version'")).toEqual([{ value: String(SEARCH_INDEX_VERSION) }]);
  for (const [thread_id, title] of Object.entries(titles)) {
    expect(await h.sql(`SELECT terms FROM tl_title_revisions WHERE thread_id = '${thread_id}'`)).toEqual([{ terms: searchTerms(title) }]);
  }
  return find;
}

describe("search index version 5 → current, on SQLite and Postgres", () => {
  it("recomputes every revision's terms at start, so version 6's rules find old titles", async () => {
    // As version 5 left them: no rest after `@`, no word without its Arabic article.
    const find = await restartedFrom(
      5,
      dir5,
      { "th-mail": "Write to me@example.com", "th-ar": "والكتاب الجديد" },
      { "th-mail": "write to me@example.com me", "th-ar": "والكتاب الجديد" },
      "كتاب",
    );
    for (const [text, id] of [["example.com", "th-mail"], ["كتاب", "th-ar"], ["جديد", "th-ar"]]) {
      for (const plan of ["narrow", "broad"] as const) expect(await find(text, plan), `${plan} ${text}`).toEqual([id]);
    }
  });
});

describe("search index version 6 → current, on SQLite and Postgres", () => {
  it("recomputes every revision's terms at start, so version 7's rules find old titles", async () => {
    // As version 6 left them: no Latin word of its own inside the Chinese, a final ς.
    const find = await restartedFrom(
      6,
      dir6,
      { "th-k8s": "如何部署Kubernetes集群", "th-el": "Αστρονομία για αρχάριους" },
      { "th-k8s": "如何部署kubernetes集群 如何部署kubernet", "th-el": "αστρονομια για αρχαριους" },
      "Kubernetes",
    );
    for (const [text, id] of [["Kubernetes", "th-k8s"], ["αρχάριους", "th-el"], ["ΑΣ", "th-el"]]) {
      for (const plan of ["narrow", "broad"] as const) expect(await find(text, plan), `${plan} ${text}`).toEqual([id]);
    }
  });
});
