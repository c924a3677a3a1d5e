import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { ThreadlineUser } from "../auth/identity";

/**
 * Renames waiting for a LangGraph server's run to end (LANGGRAPH_API_URL mode), on disk so a
 * restart of this web server does not drop them: written before the browser hears "pending",
 * removed once the LangGraph server has the title, replayed at start. A small SQLite file of the
 * web server's own (DATA_DIR/pending-renames.sqlite): the threads themselves live upstream.
 */
export interface JournalEntry {
  threadId: string;
  title: string;
  who: ThreadlineUser | null;
}

export interface RenameJournal {
  /** Records (or replaces) the thread's waiting rename; durable when it returns. */
  put(entry: JournalEntry): void;
  /** Forgets the thread's waiting rename, but only if it is still `title` (a newer one stays). */
  remove(threadId: string, title: string): void;
  all(): JournalEntry[];
  close(): void;
}

export function openRenameJournal(file: string): RenameJournal {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.exec(`CREATE TABLE IF NOT EXISTS tl_pending_renames (
    thread_id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    who_json TEXT,
    queued_at TEXT NOT NULL
  )`);
  const upsert = db.prepare(
    `INSERT INTO tl_pending_renames (thread_id, title, who_json, queued_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (thread_id) DO UPDATE SET title = excluded.title, who_json = excluded.who_json, queued_at = excluded.queued_at`,
  );
  const del = db.prepare(`DELETE FROM tl_pending_renames WHERE thread_id = ? AND title = ?`);
  const list = db.prepare(`SELECT thread_id, title, who_json FROM tl_pending_renames ORDER BY queued_at`);
  return {
    put: (e) => void upsert.run(e.threadId, e.title, e.who ? JSON.stringify(e.who) : null, new Date().toISOString()),
    remove: (threadId, title) => void del.run(threadId, title),
    all: () =>
      (list.all() as { thread_id: string; title: string; who_json: string | null }[]).map((r) => ({
        threadId: r.thread_id,
        title: r.title,
        who: r.who_json ? (JSON.parse(r.who_json) as ThreadlineUser) : null,
      })),
    close: () => db.close(),
  };
}
