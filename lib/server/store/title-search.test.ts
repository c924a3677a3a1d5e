import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test-harness";
import { sidebarQuery } from "./thread-query";

let h: Harness;
afterEach(async () => h?.close());

async function titled(title: string) {
  const t = await h.client.threads.create();
  await h.client.threads.updateState(t.thread_id, { values: { title } });
  return t.thread_id;
}

const find = async (text: string) =>
  (await h.client.threads.search({ metadata: { $title_search: text }, limit: 100 })).map((t) => t.thread_id).sort();

const sorted = (...ids: string[]) => [...ids].sort();

describe("$title_search: symbols, emoji and scripts", () => {
  it("finds emoji, C++, C# and CJK titles by what they contain, each word still a prefix", async () => {
    h = createHarness();
    const pride = await titled("Pride parade 🏳️‍🌈 plans");
    const cpp = await titled("C++ tips");
    const csharp = await titled("C# generics, explained");
    const cats = await titled("cats and dogs");
    const japanese = await titled("日本語の勉強");
    const tea = await titled("I ❤️ tea");
    const both = await titled("Porting C#/F# code (C++)");

    expect(await find("🏳️‍🌈")).toEqual([pride]);
    expect(await find("❤️")).toEqual([tea]);
    expect(await find("C++")).toEqual(sorted(cpp, both));
    expect(await find("c+")).toEqual(sorted(cpp, both));
    expect(await find("c#")).toEqual(sorted(csharp, both));
    expect(await find("F#")).toEqual([both]);
    expect(await find("c")).toEqual(sorted(cpp, csharp, cats, both));
    expect(await find("CATS")).toEqual([cats]);
    expect(await find("日本")).toEqual([japanese]);
    expect(await find("日本語")).toEqual([japanese]);
    expect(await find("generics,")).toEqual([csharp]); // prose punctuation around a word is not part of it
    expect(await find("c++ tips")).toEqual([cpp]);
    expect(await find("c#/f#")).toEqual([both]);

    // Folded alike in the index and the query: what people type without the letters' keys.
    const istanbul = await titled("İSTANBUL'da ılık hava");
    const koln = await titled("Die Straße nach Köln");
    const ecole = await titled("Don\u2019t panic about l\u2019\u00e9cole");
    const salam = await titled("مَرْحَبًا بِكُمْ");
    const zh = await titled("我想学习机器学习的基础知识");
    expect(await find("ILIK istanbul")).toEqual([istanbul]);
    expect(await find("strasse koln")).toEqual([koln]);
    expect(await find("don't l'ecole")).toEqual([ecole]);
    expect(await find("مرحبا")).toEqual([salam]);
    expect(await find("机器学习")).toEqual([zh]);
    expect(await find("机器学习的基础知识")).toEqual([zh]);
    expect(await find("知识")).toEqual([zh]);
    // A word of 100 emoji families (2,500 UTF-8 bytes) is a term each database keeps whole enough to find.
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}";
    const families = await titled(family.repeat(100));
    expect(await find(family.repeat(19))).toEqual([families]);
  });

  it("matches each word from a word's start only (or after punctuation inside it), never mid-word (unspaced scripts from any character), in both of the store's plans", async () => {
    h = createHarness();
    const lisbon = await titled("Lisbon trip");
    const grapefruit = await titled("Grapefruit salad");
    const cpp = await titled("C++ tips");
    const japanese = await titled("日本語の勉強");
    const path = await titled("Fix src/lib/foo.ts imports");
    const arabic = await titled("مقدمة الكتاب");
    const cases: [string, string[]][] = [
      ["lis", [lisbon]],
      // After punctuation a word's rest is found too; an Arabic word without its article.
      ["foo.ts", [path]],
      ["lib/foo", [path]],
      ["oo.ts", []],
      ["كتاب", [arabic]],
      ["تاب", []],
      ["isbon", []],
      ["bon", []],
      ["trip lis", [lisbon]],
      ["rip", []],
      ["grape", [grapefruit]],
      ["fruit", []],
      ["ips", []],
      ["c+", [cpp]],
      ["+", []],
      ["日本", [japanese]],
      // Unspaced scripts have no word starts to keep to: any run of their characters is found.
      ["勉強", [japanese]],
      ["本語の", [japanese]],
      ["強の", []],
    ];
    const asOf = new Date(Date.now() + 60_000).toISOString();
    for (const [text, ids] of cases) {
      expect(await find(text), text).toEqual(sorted(...ids));
      for (const plan of ["narrow", "broad"] as const) {
        const rows = await h.api.q.searchThreads(sidebarQuery(asOf, { titleSearch: text }), plan);
        expect(rows.map((r) => r.thread_id).sort(), `${text} (${plan})`).toEqual(sorted(...ids));
      }
    }
  });

  it("still finds a thread by a former title", async () => {
    h = createHarness();
    const id = await titled("C++ templates");
    await h.client.threads.updateState(id, { values: { title: "Generic programming" } });
    expect(await find("c++")).toEqual([id]);
    expect(await h.client.threads.count({ metadata: { $title_search: "c++" } })).toBe(1);
  });

  it("no text, however strange, is FTS syntax or a server error", async () => {
    h = createHarness();
    const quoted = await titled('He said "hi" and left');
    expect(await find('"hi"')).toEqual([quoted]);
    expect(await find("hi*")).toEqual([quoted]);
    expect(await find('" OR "')).toEqual([]);
    // A lone surrogate is no character of any title: it reached SQLite as one that matched them all.
    expect(await find("\ud804")).toEqual([]);
    expect(await find("hi \udc00")).toEqual([quoted]);
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 40 }), async (text) => {
        const res = await h.fetch("/threads/search", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ metadata: { $title_search: text } }),
        });
        expect(res.status).toBe(200);
      }),
      { numRuns: 150 },
    );
  });
});

/** The registry as the first release created it: unicode61 over the raw titles, no activity_at. */
const FIRST_RELEASE_SCHEMA = `
CREATE TABLE tl_threads (
  thread_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}', status TEXT NOT NULL DEFAULT 'idle', values_json TEXT,
  interrupts_json TEXT, title TEXT, title_source TEXT, pin_pending INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE tl_title_revisions (
  id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id TEXT NOT NULL, title TEXT NOT NULL, source TEXT,
  at TEXT NOT NULL, UNIQUE (thread_id, title)
);
CREATE VIRTUAL TABLE tl_title_fts USING fts5(
  title, content='tl_title_revisions', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER tl_title_revisions_ai AFTER INSERT ON tl_title_revisions BEGIN
  INSERT INTO tl_title_fts (rowid, title) VALUES (new.id, new.title);
END;
CREATE TRIGGER tl_title_revisions_ad AFTER DELETE ON tl_title_revisions BEGIN
  INSERT INTO tl_title_fts (tl_title_fts, rowid, title) VALUES ('delete', old.id, old.title);
END;
CREATE TABLE tl_thread_activity (thread_id TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (thread_id, at)) WITHOUT ROWID;
`;

// An SQLite file from before migrations; the Postgres run (TEST_DATABASE_URL) has no such past.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))("a database made by the first release", () => {
  it("is migrated at start: symbol search works on old titles and the list has an activity order", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-old-db-"));
    const old = new Database(path.join(dir, "threadline.sqlite"));
    old.exec(FIRST_RELEASE_SCHEMA);
    const addThread = (id: string, title: string, at: string) => {
      old.prepare("INSERT INTO tl_threads (thread_id, created_at, updated_at, title, title_source) VALUES (?, ?, ?, ?, ?)").run(id, at, at, title, '{"kind":"user"}');
      old.prepare("INSERT INTO tl_title_revisions (thread_id, title, source, at) VALUES (?, ?, ?, ?)").run(id, title, '{"kind":"user"}', at);
      old.prepare("INSERT INTO tl_thread_activity (thread_id, at) VALUES (?, ?)").run(id, at);
    };
    addThread("11111111-1111-4111-8111-111111111111", "C++ tips", "2026-01-01T00:00:00.000Z");
    addThread("22222222-2222-4222-8222-222222222222", "Pride 🏳️‍🌈", "2026-01-02T00:00:00.000Z");
    const oldMatch = (q: string) => old.prepare("SELECT rowid FROM tl_title_fts WHERE tl_title_fts MATCH ?").all(q);
    expect(oldMatch('"C#"*')).toHaveLength(1); // "C++ tips": the old tokenizer reads C# and C++ as "c"
    old.close();

    h = createHarness({ dir });
    try {
      expect(await find("c+")).toEqual(["11111111-1111-4111-8111-111111111111"]);
      expect(await find("🏳️‍🌈")).toEqual(["22222222-2222-4222-8222-222222222222"]);
      const id = await titled("C# newcomer"); // new revisions use the new index
      expect(await find("c#")).toEqual([id]);
      const listed = await h.client.threads.search({ sortBy: "activity_at" as "updated_at", sortOrder: "desc" });
      expect(listed.map((t) => t.thread_id)).toEqual([id, "22222222-2222-4222-8222-222222222222", "11111111-1111-4111-8111-111111111111"]);
    } finally {
      await h.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
