import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test-harness";
import { SEARCH_INDEX_VERSION } from "./search-terms";
import { sidebarQuery } from "./thread-query";

/**
 * A file from the build before search index version 3 (FTS5 `unicode61` folding raw terms) is
 * rebuilt at start: terms stored folded, the `ascii`-tokenized index over them, so the index
 * ("narrow") and the per-row test ("broad") find the same threads, accents and case folded.
 */

let h: Harness | undefined;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-index-v2-"));
afterAll(async () => {
  await h?.close();
  fs.rmSync(dir, { recursive: true, force: true });
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
