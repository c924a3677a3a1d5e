import type Database from "better-sqlite3";
import { SEARCH_INDEX_VERSION, SEARCH_TOKENIZER, titleTerms } from "./search-terms";

/**
 * The API's registry lives in the checkpointer's SQLite file and connection (one file to back
 * up, one transaction domain). `tl_` prefixes keep it apart from the saver's own tables.
 *
 * - tl_threads: one row per thread, the list's only source (search never reads checkpoints):
 *   status, metadata, a values snapshot and the title projection (title, title_source).
 *   `updated_at` moves on any change (LangGraph's meaning); `activity_at` only when the
 *   conversation itself moves (created, a run starts or ends, a state update): the list's order.
 *   `pin_pending` = a user rename accepted while a run was going that the checkpoint does not
 *   have yet; the run manager (or restart repair) writes it in and clears the flag.
 * - tl_title_revisions + tl_title_fts: every title a thread has had, FTS5-indexed over its
 *   search terms (search-terms.ts), so title search finds a thread by its current and earlier titles.
 * - tl_thread_activity: each thread's activity instants, so "order as of time T" is computable for
 *   stable snapshot paging. Pruned to what an as-of query within the retention window needs.
 * - tl_runs: run rows, so a restart can see what was pending or running when the process died.
 * - tl_title_requests: the audit of every title-model request (what was sent, how it ended),
 *   deleted with its thread.
 * - tl_threads.sync_pending (added column): an idle-thread write (rename, regenerate, state
 *   update) is under way; it writes the checkpoint first and the registry second, so a crash in
 *   between leaves this flag for restart repair to re-sync the registry from the checkpoint.
 * - tl_meta: key/value facts about the schema itself (the search index's version).
 */
const DDL = `
CREATE TABLE IF NOT EXISTS tl_threads (
  thread_id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'idle',
  values_json TEXT,
  interrupts_json TEXT,
  title TEXT,
  title_source TEXT,
  pin_pending INTEGER NOT NULL DEFAULT 0,
  activity_at TEXT
);
CREATE INDEX IF NOT EXISTS tl_threads_updated ON tl_threads (updated_at, thread_id);
CREATE INDEX IF NOT EXISTS tl_threads_created ON tl_threads (created_at, thread_id);
CREATE INDEX IF NOT EXISTS tl_threads_status ON tl_threads (status);

CREATE TABLE IF NOT EXISTS tl_title_revisions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  thread_id TEXT NOT NULL,
  title TEXT NOT NULL,
  source TEXT,
  at TEXT NOT NULL,
  terms TEXT NOT NULL DEFAULT '',
  UNIQUE (thread_id, title)
);

CREATE TABLE IF NOT EXISTS tl_thread_activity (
  thread_id TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (thread_id, at)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS tl_runs (
  run_id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  assistant_id TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  metadata TEXT NOT NULL DEFAULT '{}',
  kwargs TEXT NOT NULL DEFAULT '{}',
  multitask_strategy TEXT,
  error TEXT
);
CREATE INDEX IF NOT EXISTS tl_runs_thread ON tl_runs (thread_id, created_at);
CREATE INDEX IF NOT EXISTS tl_runs_status ON tl_runs (status);

CREATE TABLE IF NOT EXISTS tl_title_requests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  thread_id TEXT NOT NULL,
  at TEXT NOT NULL,
  model TEXT NOT NULL,
  purpose TEXT NOT NULL,
  system TEXT,
  user TEXT NOT NULL,
  max_tokens INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  title TEXT,
  reason TEXT,
  latency_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tl_title_requests_thread ON tl_title_requests (thread_id, id);

CREATE TABLE IF NOT EXISTS tl_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

const SEARCH_INDEX_DDL = `
CREATE VIRTUAL TABLE tl_title_fts USING fts5(
  terms, content='tl_title_revisions', content_rowid='id', tokenize="${SEARCH_TOKENIZER}"
);
CREATE TRIGGER tl_title_revisions_ai AFTER INSERT ON tl_title_revisions BEGIN
  INSERT INTO tl_title_fts (rowid, terms) VALUES (new.id, new.terms);
END;
CREATE TRIGGER tl_title_revisions_ad AFTER DELETE ON tl_title_revisions BEGIN
  INSERT INTO tl_title_fts (tl_title_fts, rowid, terms) VALUES ('delete', old.id, old.terms);
END;
`;

/** Columns added after the first release; ALTER TABLE has no IF NOT EXISTS, so each is checked. */
const ADDED_COLUMNS: { table: string; column: string; ddl: string }[] = [
  { table: "tl_threads", column: "sync_pending", ddl: "ALTER TABLE tl_threads ADD COLUMN sync_pending INTEGER NOT NULL DEFAULT 0" },
  { table: "tl_threads", column: "activity_at", ddl: "ALTER TABLE tl_threads ADD COLUMN activity_at TEXT" },
  { table: "tl_title_revisions", column: "terms", ddl: "ALTER TABLE tl_title_revisions ADD COLUMN terms TEXT NOT NULL DEFAULT ''" },
];

/** A new tokenizer or term rule means every revision's terms and the whole index are rebuilt. */
function ensureSearchIndex(db: Database.Database) {
  const row = db.prepare<[], { value: string }>("SELECT value FROM tl_meta WHERE key = 'search_index_version'").get();
  if (row?.value === String(SEARCH_INDEX_VERSION)) return;
  db.exec(`
    DROP TRIGGER IF EXISTS tl_title_revisions_ai;
    DROP TRIGGER IF EXISTS tl_title_revisions_ad;
    DROP TABLE IF EXISTS tl_title_fts;
  `);
  const setTerms = db.prepare("UPDATE tl_title_revisions SET terms = ? WHERE id = ?");
  for (const r of db.prepare<[], { id: number; title: string }>("SELECT id, title FROM tl_title_revisions").all()) {
    setTerms.run(titleTerms(r.title), r.id);
  }
  db.exec(SEARCH_INDEX_DDL);
  db.exec("INSERT INTO tl_title_fts (tl_title_fts) VALUES ('rebuild')");
  db.prepare("INSERT OR REPLACE INTO tl_meta (key, value) VALUES ('search_index_version', ?)").run(String(SEARCH_INDEX_VERSION));
}

export function ensureRegistrySchema(db: Database.Database): void {
  db.transaction(() => {
    db.exec(DDL);
    for (const { table, column, ddl } of ADDED_COLUMNS) {
      const cols = db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
      if (!cols.some((c) => c.name === column)) db.exec(ddl);
    }
    // Older builds did not tell activity from renames; their last touch is the best guess there is.
    db.exec("UPDATE tl_threads SET activity_at = updated_at WHERE activity_at IS NULL");
    db.exec("CREATE INDEX IF NOT EXISTS tl_threads_activity ON tl_threads (activity_at, thread_id)");
    ensureSearchIndex(db);
  })();
}
