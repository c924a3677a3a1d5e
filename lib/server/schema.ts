import type Database from "better-sqlite3";

/**
 * The API's registry lives in the checkpointer's SQLite file and connection (one file to back
 * up, one transaction domain). `tl_` prefixes keep it apart from the saver's own tables.
 *
 * - tl_threads: one row per thread, the list's only source (search never reads checkpoints):
 *   status, metadata, a values snapshot and the title projection (title, title_source).
 *   `pin_pending` = a user rename accepted while a run was going that the checkpoint does not
 *   have yet; the run manager (or restart repair) writes it in and clears the flag.
 * - tl_title_revisions + tl_title_fts: every title a thread has had, FTS5-indexed, so title
 *   search finds a thread by its current and its earlier titles.
 * - tl_thread_activity: when each thread was touched, so "order as of time T" is computable for
 *   stable snapshot paging. Pruned to what an as-of query within the retention window needs.
 * - tl_runs: run rows, so a restart can see what was pending or running when the process died.
 * - tl_title_requests: the audit of every title-model request (what was sent, how it ended),
 *   deleted with its thread.
 * - tl_threads.sync_pending (added column): an idle-thread write (rename, regenerate, state
 *   update) is under way; it writes the checkpoint first and the registry second, so a crash in
 *   between leaves this flag for restart repair to re-sync the registry from the checkpoint.
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
  pin_pending INTEGER NOT NULL DEFAULT 0
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
  UNIQUE (thread_id, title)
);
CREATE VIRTUAL TABLE IF NOT EXISTS tl_title_fts USING fts5(
  title, content='tl_title_revisions', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS tl_title_revisions_ai AFTER INSERT ON tl_title_revisions BEGIN
  INSERT INTO tl_title_fts (rowid, title) VALUES (new.id, new.title);
END;
CREATE TRIGGER IF NOT EXISTS tl_title_revisions_ad AFTER DELETE ON tl_title_revisions BEGIN
  INSERT INTO tl_title_fts (tl_title_fts, rowid, title) VALUES ('delete', old.id, old.title);
END;

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
`;

/** Columns added after the first release; ALTER TABLE has no IF NOT EXISTS, so each is checked. */
const ADDED_COLUMNS: { table: string; column: string; ddl: string }[] = [
  { table: "tl_threads", column: "sync_pending", ddl: "ALTER TABLE tl_threads ADD COLUMN sync_pending INTEGER NOT NULL DEFAULT 0" },
];

export function ensureRegistrySchema(db: Database.Database): void {
  db.exec(DDL);
  for (const { table, column, ddl } of ADDED_COLUMNS) {
    const cols = db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
    if (!cols.some((c) => c.name === column)) db.exec(ddl);
  }
}
