import type Database from "better-sqlite3";
import { ensureRegistrySchema } from "./schema";
import { buildThreadFilter, buildOrder, extractColumns, type ThreadQuery } from "./search-sql";
import { titleTerms } from "./search-terms";

/** All SQL the API runs lives here (search's WHERE/ORDER builder sits beside it in search-sql.ts). */

export type ThreadStatus = "idle" | "busy" | "interrupted" | "error";
export type RunStatus = "pending" | "running" | "success" | "error" | "timeout" | "interrupted";

export interface ThreadRow {
  thread_id: string;
  created_at: string;
  updated_at: string;
  /** Last time the conversation moved (created, run start/end, state update); the list's order. */
  activity_at: string;
  metadata: string;
  status: ThreadStatus;
  values_json: string | null;
  interrupts_json: string | null;
  title: string | null;
  title_source: string | null;
  pin_pending: number;
  sync_pending?: number;
  [extracted: `ex_${number}`]: string | null;
}

export interface RunRow {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: RunStatus;
  created_at: string;
  updated_at: string;
  metadata: string;
  kwargs: string;
  multitask_strategy: string | null;
  error: string | null;
}

export interface TitleRequestRow {
  id: number;
  thread_id: string;
  at: string;
  model: string;
  purpose: string;
  system: string | null;
  user: string;
  max_tokens: number;
  outcome: string;
  title: string | null;
  reason: string | null;
  latency_ms: number;
}

/** Activity older than this keeps only each thread's latest entry (as-of paging window). */
const ACTIVITY_RETENTION_MS = 24 * 60 * 60 * 1000;

export type Queries = ReturnType<typeof createQueries>;

export function createQueries(db: Database.Database) {
  ensureRegistrySchema(db);
  const q = {
    getThread: db.prepare<[string], ThreadRow>("SELECT * FROM tl_threads WHERE thread_id = ?"),
    insertThread: db.prepare(
      `INSERT INTO tl_threads (thread_id, created_at, updated_at, activity_at, metadata, status, values_json, title, title_source, pin_pending)
       VALUES (@thread_id, @at, @at, @at, @metadata, 'idle', @values_json, @title, @title_source, @pin_pending)`,
    ),
    setSyncPending: db.prepare("UPDATE tl_threads SET sync_pending = ? WHERE thread_id = ?"),
    setMetadata: db.prepare("UPDATE tl_threads SET metadata = ?, updated_at = ? WHERE thread_id = ?"),
    setStatus: db.prepare("UPDATE tl_threads SET status = ? WHERE thread_id = ?"),
    setStatusActive: db.prepare("UPDATE tl_threads SET status = @status, updated_at = @at, activity_at = @at WHERE thread_id = @id"),
    setValues: db.prepare("UPDATE tl_threads SET values_json = ?, interrupts_json = ? WHERE thread_id = ?"),
    setTitle: db.prepare(
      "UPDATE tl_threads SET title = ?, title_source = ?, pin_pending = ?, updated_at = ? WHERE thread_id = ?",
    ),
    clearPin: db.prepare("UPDATE tl_threads SET pin_pending = 0 WHERE thread_id = ?"),
    deleteThread: db.prepare("DELETE FROM tl_threads WHERE thread_id = ?"),
    addRevision: db.prepare(
      "INSERT OR IGNORE INTO tl_title_revisions (thread_id, title, source, at, terms) VALUES (?, ?, ?, ?, ?)",
    ),
    copyRevisions: db.prepare(
      `INSERT OR IGNORE INTO tl_title_revisions (thread_id, title, source, at, terms)
       SELECT ?, title, source, at, terms FROM tl_title_revisions WHERE thread_id = ? ORDER BY id`,
    ),
    deleteRevisions: db.prepare("DELETE FROM tl_title_revisions WHERE thread_id = ?"),
    addActivity: db.prepare("INSERT OR IGNORE INTO tl_thread_activity (thread_id, at) VALUES (?, ?)"),
    deleteActivity: db.prepare("DELETE FROM tl_thread_activity WHERE thread_id = ?"),
    pruneActivity: db.prepare(
      `DELETE FROM tl_thread_activity WHERE at < @cutoff AND at < (
         SELECT MAX(b.at) FROM tl_thread_activity b
         WHERE b.thread_id = tl_thread_activity.thread_id AND b.at < @cutoff)`,
    ),
    idleThreadIds: db.prepare<[], { thread_id: string }>("SELECT thread_id FROM tl_threads WHERE status != 'busy' AND pin_pending = 0"),
    busyThreads: db.prepare<[], ThreadRow>("SELECT * FROM tl_threads WHERE status = 'busy' OR pin_pending = 1 OR sync_pending = 1"),
    insertRun: db.prepare(
      `INSERT INTO tl_runs (run_id, thread_id, assistant_id, status, created_at, updated_at, metadata, kwargs, multitask_strategy)
       VALUES (@run_id, @thread_id, @assistant_id, @status, @created_at, @created_at, @metadata, @kwargs, @multitask_strategy)`,
    ),
    setRunStatus: db.prepare("UPDATE tl_runs SET status = ?, error = ?, updated_at = ? WHERE run_id = ?"),
    getRun: db.prepare<[string, string], RunRow>("SELECT * FROM tl_runs WHERE thread_id = ? AND run_id = ?"),
    listRuns: db.prepare<[string, string | null, string | null, number, number], RunRow>(
      `SELECT * FROM tl_runs WHERE thread_id = ? AND (? IS NULL OR status = ?)
       ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?`,
    ),
    deleteRun: db.prepare("DELETE FROM tl_runs WHERE run_id = ?"),
    deleteThreadRuns: db.prepare("DELETE FROM tl_runs WHERE thread_id = ?"),
    unfinishedRuns: db.prepare<[], RunRow>("SELECT * FROM tl_runs WHERE status IN ('pending', 'running') ORDER BY created_at, run_id"),
    deleteCheckpoints: db.prepare("DELETE FROM checkpoints WHERE thread_id = ?"),
    deleteWrites: db.prepare("DELETE FROM writes WHERE thread_id = ?"),
    // The checkpoint's metadata repeats the thread id (run metadata); the copy names its own.
    copyCheckpoints: db.prepare(
      `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
       SELECT @to, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,
         CASE WHEN json_valid(CAST(metadata AS TEXT)) AND json_type(CAST(metadata AS TEXT), '$.thread_id') IS NOT NULL
           THEN CAST(json_set(CAST(metadata AS TEXT), '$.thread_id', @to) AS BLOB) ELSE metadata END
       FROM checkpoints WHERE thread_id = @from`,
    ),
    copyWrites: db.prepare(
      `INSERT INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value)
       SELECT @to, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value FROM writes WHERE thread_id = @from`,
    ),
    // A title call can end after its thread was deleted (the run was cancelled by the delete): no orphan rows.
    insertTitleRequest: db.prepare(
      `INSERT INTO tl_title_requests (thread_id, at, model, purpose, system, user, max_tokens, outcome, title, reason, latency_ms)
       SELECT @thread_id, @at, @model, @purpose, @system, @user, @max_tokens, @outcome, @title, @reason, @latency_ms
       WHERE EXISTS (SELECT 1 FROM tl_threads WHERE thread_id = @thread_id)`,
    ),
    listTitleRequests: db.prepare<[string, number, number], TitleRequestRow>(
      "SELECT * FROM tl_title_requests WHERE thread_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
    ),
    deleteTitleRequests: db.prepare("DELETE FROM tl_title_requests WHERE thread_id = ?"),
  };
  let writes = 0;

  /** Logs an activity instant for as-of paging (renames, stars and other metadata are not activity). */
  function logActivity(threadId: string, at: string) {
    q.addActivity.run(threadId, at);
    if (++writes % 500 === 0) {
      q.pruneActivity.run({ cutoff: new Date(Date.parse(at) - ACTIVITY_RETENTION_MS).toISOString() });
    }
  }

  return {
    db,
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    getThread: (id: string) => q.getThread.get(id),
    insertThread: db.transaction((row: { thread_id: string; at: string; metadata: string; values_json?: string | null; title?: string | null; title_source?: string | null; pin_pending?: number }) => {
      q.insertThread.run({ values_json: null, title: null, title_source: null, pin_pending: 0, ...row });
      logActivity(row.thread_id, row.at);
      if (row.title) q.addRevision.run(row.thread_id, row.title, row.title_source ?? null, row.at, titleTerms(row.title));
    }),
    setMetadata: (id: string, metadata: string, at: string) => q.setMetadata.run(metadata, at, id),
    /** With `activityAt`, the status change is the conversation moving (a run started or ended). */
    setStatus: db.transaction((id: string, status: ThreadStatus, activityAt?: string) => {
      if (activityAt) {
        q.setStatusActive.run({ status, at: activityAt, id });
        logActivity(id, activityAt);
      } else q.setStatus.run(status, id);
    }),
    setValues: (id: string, valuesJson: string | null, interruptsJson: string | null) =>
      q.setValues.run(valuesJson, interruptsJson, id),
    /** Writes the projection and records the revision for title search (one transaction). */
    setTitle: db.transaction((id: string, title: string | null, sourceJson: string | null, pinPending: boolean, at: string) => {
      q.setTitle.run(title, sourceJson, pinPending ? 1 : 0, at, id);
      if (title) q.addRevision.run(id, title, sourceJson, at, titleTerms(title));
    }),
    clearPin: (id: string) => q.clearPin.run(id),
    setSyncPending: (id: string, on: boolean) => q.setSyncPending.run(on ? 1 : 0, id),
    copyRevisions: (toId: string, fromId: string) => q.copyRevisions.run(toId, fromId),
    /** The thread, its checkpoints (the saver's tables, same file) and its rows: all or nothing. */
    deleteThread: db.transaction((id: string) => {
      q.deleteCheckpoints.run(id);
      q.deleteWrites.run(id);
      q.deleteThread.run(id);
      q.deleteRevisions.run(id);
      q.deleteActivity.run(id);
      q.deleteThreadRuns.run(id);
      q.deleteTitleRequests.run(id);
    }),
    /** Every checkpoint and pending write of a thread under a new id (run inside the copy's transaction). */
    copyCheckpoints(fromId: string, toId: string) {
      q.copyCheckpoints.run({ from: fromId, to: toId });
      q.copyWrites.run({ from: fromId, to: toId });
    },
    threadsNeedingRepair: () => q.busyThreads.all(),
    idleThreadIds: () => q.idleThreadIds.all().map((r) => r.thread_id),
    searchThreads(query: ThreadQuery): ThreadRow[] {
      const filter = buildThreadFilter(query);
      const { sql: exSql, params: exParams } = extractColumns(query.extract);
      const order = buildOrder(query);
      const cols = query.withValues ? "t.*" : "t.thread_id, t.created_at, t.updated_at, t.activity_at, t.metadata, t.status, t.interrupts_json, t.title, t.title_source, t.pin_pending";
      const sql = `SELECT ${cols}${exSql}${order.column} FROM tl_threads t WHERE ${filter.sql} ORDER BY ${order.sql} LIMIT ? OFFSET ?`;
      return db.prepare<unknown[], ThreadRow>(sql).all(...exParams, ...order.params, ...filter.params, query.limit, query.offset);
    },
    countThreads(query: ThreadQuery): number {
      const filter = buildThreadFilter(query);
      const row = db.prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM tl_threads t WHERE ${filter.sql}`).get(...filter.params);
      return row?.n ?? 0;
    },
    insertRun: (row: Omit<RunRow, "updated_at" | "error">) => q.insertRun.run(row),
    setRunStatus: (runId: string, status: RunStatus, error: string | null, at: string) =>
      q.setRunStatus.run(status, error, at, runId),
    getRun: (threadId: string, runId: string) => q.getRun.get(threadId, runId),
    listRuns: (threadId: string, status: string | null, limit: number, offset: number) =>
      q.listRuns.all(threadId, status, status, limit, offset),
    deleteRun: (runId: string) => q.deleteRun.run(runId),
    unfinishedRuns: () => q.unfinishedRuns.all(),
    insertTitleRequest: (row: Omit<TitleRequestRow, "id">) => q.insertTitleRequest.run(row),
    listTitleRequests: (threadId: string, limit: number, offset: number) => q.listTitleRequests.all(threadId, limit, offset),
    /**
     * Local → accounts: threads made in local mode have no owner; they go to the FIRST account
     * (the oldest row of better-auth's `user` table), all in one transaction. Idempotent: run when
     * a user is created and at every start in accounts mode. null = no account yet.
     */
    adoptUnownedThreads: db.transaction((): { owner: string; adopted: number } | null => {
      const first = db.prepare<[], { id: string }>('SELECT id FROM "user" ORDER BY "createdAt", rowid LIMIT 1').get();
      if (!first) return null;
      const { changes } = db
        .prepare("UPDATE tl_threads SET metadata = json_set(metadata, '$.owner', ?) WHERE json_type(metadata, '$.owner') IS NULL")
        .run(first.id);
      return { owner: first.id, adopted: changes };
    }),
    /**
     * Rollback removes the checkpoints a cancelled run wrote. Checkpoint ids are time-ordered
     * (uuid6), so "written after the run's starting checkpoint" is a string comparison. These are
     * the SqliteSaver's tables (created by its setup(), which the caller has run by then).
     */
    dropCheckpointsAfter(threadId: string, checkpointId: string | null) {
      const after = checkpointId ?? "";
      db.prepare("DELETE FROM writes WHERE thread_id = ? AND checkpoint_id > ?").run(threadId, after);
      db.prepare("DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_id > ?").run(threadId, after);
    },
  };
}
