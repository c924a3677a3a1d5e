import type Database from "better-sqlite3";
import { sql, type RawBuilder, type Selectable } from "kysely";
import { sqliteStore, type RunsTable, type Store, type TitleRequestsTable } from "./db";
import { buildSearch, buildThreadFilter, threadJsonColumn, titleMatchCount, titleProbe, LONG_WINDOW, NARROW_MATCHES, SHORT_WINDOW, type ThreadQuery, type TitlePlan } from "./search-sql";
import { searchTerms } from "@/lib/title/search-words";

/**
 * All SQL the API runs lives here, written once with Kysely for both dialects (search's
 * WHERE/ORDER builder sits beside it in search-sql.ts). Every method is async; multi-statement
 * writes are one transaction (see db.ts for how a transaction is joined, and
 * lib/agent/sqlite-gate.ts for why the checkpointer never writes inside one of ours).
 */

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

/** A run's row; the status column holds only these values. */
export type RunRow = Omit<Selectable<RunsTable>, "status"> & { status: RunStatus };

export type TitleRequestRow = Selectable<TitleRequestsTable>;

/** A checkpoint (null: none) and the title fact it holds, as the registry's title columns spell it. */
export type SyncedFact = { checkpointId: string | null; title: string | null; titleSource: string | null };
const syncedColumns = (f: SyncedFact) => ({ synced_checkpoint_id: f.checkpointId, synced_title: f.title, synced_title_source: f.titleSource });

/** Activity older than this keeps only each thread's latest entry (as-of paging window). */
const ACTIVITY_RETENTION_MS = 24 * 60 * 60 * 1000;

const THREAD_LIST_COLUMNS = ["thread_id", "created_at", "updated_at", "activity_at", "metadata", "status", "interrupts_json", "title", "title_source", "pin_pending"] as const;

/**
 * The columns of a thread's row that every check reads (existence, owner, title, pin, status): not
 * its values snapshot, which grows with the conversation, so no check copies it out per call, nor
 * the synced_* columns, which only restart repair's drift query reads.
 */
export type ThreadHead = Omit<ThreadRow, "values_json" | `ex_${number}`>;
const THREAD_HEAD_COLUMNS = [...THREAD_LIST_COLUMNS, "sync_pending"] as const;

/** The columns the title precedence rule reads (see Registry.retitle). */
export type ThreadTitleColumns = Pick<ThreadRow, "title" | "title_source" | "pin_pending">;

export type Queries = ReturnType<typeof queriesFor>;

/** The registry over the checkpointer's SQLite connection (migrate() must have run before use). */
export function createQueries(db: Database.Database) {
  return queriesFor(sqliteStore(db));
}

export function queriesFor(store: Store) {
  const x = store.exec;
  let writes = 0;
  // The cutoff of this process's last prune. After a prune each thread has at most one row before
  // that cutoff, so the next prune need only visit the threads with a row since it (found through
  // tl_thread_activity_at), not every thread: the whole-table walk grew with N and held the
  // connection for it every 500 writes. Null until the first prune, which walks every older row.
  // It moves only when the prune's transaction commits: a rolled-back prune left its rows, and the
  // next must visit them again. (A row written later with an instant before the cutoff escapes
  // the prunes after it and is kept: more history than needed, never less.)
  let prunedTo: string | null = null;

  /** Logs an activity instant for as-of paging (renames, stars and other metadata are not activity). */
  async function logActivity(threadId: string, at: string) {
    await x().insertInto("tl_thread_activity").values({ thread_id: threadId, at }).onConflict((oc) => oc.doNothing()).execute();
    if (++writes % 500 === 0) await pruneActivity(new Date(Date.parse(at) - ACTIVITY_RETENTION_MS).toISOString());
  }

  /** Deletes the rows before `cutoff` that are not their thread's latest before it (an as-of query never needs them). */
  const pruneStatement = (cutoff: string, since: string | null) =>
    x()
      .deleteFrom("tl_thread_activity as a")
      .where("a.at", "<", cutoff)
      .$if(since !== null, (qb) =>
        qb.where(({ eb, selectFrom }) =>
          eb("a.thread_id", "in", selectFrom("tl_thread_activity as w").select("w.thread_id").where("w.at", ">=", since!).where("w.at", "<", cutoff)),
        ),
      )
      .where(({ eb, selectFrom }) =>
        eb("a.at", "<", selectFrom("tl_thread_activity as b").select((b) => b.fn.max("b.at").as("m")).whereRef("b.thread_id", "=", "a.thread_id").where("b.at", "<", cutoff)),
      );

  async function pruneActivity(cutoff: string) {
    if (prunedTo !== null && cutoff <= prunedTo) return;
    await pruneStatement(cutoff, prunedTo).execute();
    store.afterCommit(() => {
      if (prunedTo === null || cutoff > prunedTo) prunedTo = cutoff;
    });
  }

  async function addRevision(threadId: string, title: string, source: string | null, at: string) {
    await x()
      .insertInto("tl_title_revisions")
      .values({ thread_id: threadId, title, source, at, terms: searchTerms(title) })
      .onConflict((oc) => oc.columns(["thread_id", "title"]).doNothing())
      .execute();
  }

  /** Walk the order when a page's worth of matches is near its head, else start from the index (search-sql.ts, SHORT_WINDOW). */
  async function titlePlan(query: ThreadQuery): Promise<TitlePlan> {
    if (query.titleSearch == null || query.titleSearch.trim() === "") return "broad";
    const count = async (s: RawBuilder<unknown>) => Number((await sql<{ n: number | string }>`${s}`.execute(x())).rows[0]?.n ?? 0);
    const short = titleProbe(query, store.dialect, SHORT_WINDOW);
    if (!short) return "none";
    if ((await count(short.sql)) >= short.need) return "broad";
    if ((await count(titleMatchCount(store.dialect, query.titleSearch)!)) < NARROW_MATCHES) return "narrow";
    const long = titleProbe(query, store.dialect, LONG_WINDOW)!;
    return (await count(long.sql)) >= long.need ? "broad" : "narrow";
  }

  async function searchStatement(query: ThreadQuery, plan?: TitlePlan) {
    const cols = query.withValues ? sql`t.*` : sql.join(THREAD_LIST_COLUMNS.map((c) => sql.ref(`t.${c}`)));
    return buildSearch(query, store.dialect, plan ?? (await titlePlan(query)), cols);
  }

  async function explain(statement: RawBuilder<unknown>): Promise<unknown[]> {
    const how = sql.raw(store.dialect === "postgres" ? "EXPLAIN (FORMAT JSON)" : "EXPLAIN QUERY PLAN");
    const { rows } = await sql<Record<string, unknown>>`${how} ${statement}`.execute(x());
    return rows;
  }

  const getThread = (id: string) =>
    x().selectFrom("tl_threads").selectAll().where("thread_id", "=", id).executeTakeFirst() as Promise<ThreadRow | undefined>;

  const getThreadHead = (id: string) =>
    x().selectFrom("tl_threads").select(THREAD_HEAD_COLUMNS).where("thread_id", "=", id).executeTakeFirst() as Promise<ThreadHead | undefined>;

  return {
    store,
    transaction: <T>(fn: () => Promise<T>): Promise<T> => store.transaction(fn),
    getThread,
    getThreadHead,
    /**
     * The thread's head, its row locked until the surrounding transaction ends (Postgres `FOR UPDATE`; in SQLite the
     * transaction already has the connection to itself): for read-decide-write steps such as
     * "mirror the title unless a rename is pending", which a concurrent rename must not slip into.
     */
    lockThread: (id: string) => {
      const q = x().selectFrom("tl_threads").select(THREAD_HEAD_COLUMNS).where("thread_id", "=", id);
      return (store.dialect === "postgres" ? q.forUpdate() : q).executeTakeFirst() as Promise<ThreadHead | undefined>;
    },
    /** False when the id is taken (a concurrent create won): the caller answers 409 or returns the existing row. */
    insertThread: (row: { thread_id: string; at: string; metadata: string; values_json?: string | null; title?: string | null; title_source?: string | null; pin_pending?: number }) =>
      store.transaction(async () => {
        const inserted = await x()
          .insertInto("tl_threads")
          .values({
            thread_id: row.thread_id,
            created_at: row.at,
            updated_at: row.at,
            activity_at: row.at,
            metadata: row.metadata,
            status: "idle",
            values_json: row.values_json ?? null,
            interrupts_json: null,
            title: row.title ?? null,
            title_source: row.title_source ?? null,
            pin_pending: row.pin_pending ?? 0,
          })
          .onConflict((oc) => oc.column("thread_id").doNothing())
          .executeTakeFirst();
        if (!Number(inserted.numInsertedOrUpdatedRows ?? 0)) return false;
        await logActivity(row.thread_id, row.at);
        if (row.title) await addRevision(row.thread_id, row.title, row.title_source ?? null, row.at);
        return true;
      }),
    setMetadata: (id: string, metadata: string, at: string) =>
      x().updateTable("tl_threads").set({ metadata, updated_at: at }).where("thread_id", "=", id).execute(),
    /** With `activityAt`, the status change is the conversation moving (a run started or ended). */
    setStatus: (id: string, status: ThreadStatus, activityAt?: string) =>
      activityAt
        ? store.transaction(async () => {
            await x().updateTable("tl_threads").set({ status, updated_at: activityAt, activity_at: activityAt }).where("thread_id", "=", id).execute();
            await logActivity(id, activityAt);
          })
        : x().updateTable("tl_threads").set({ status }).where("thread_id", "=", id).execute(),
    /** The snapshot of checkpoint `synced` (its id and title fact: what drift checks compare against). */
    setValues: (id: string, valuesJson: string | null, interruptsJson: string | null, synced: SyncedFact) =>
      x().updateTable("tl_threads").set({ values_json: valuesJson, interrupts_json: interruptsJson, ...syncedColumns(synced) }).where("thread_id", "=", id).execute(),
    setSynced: (id: string, synced: SyncedFact) => x().updateTable("tl_threads").set(syncedColumns(synced)).where("thread_id", "=", id).execute(),
    /** A run's snapshot; answers the title columns as they are after it (one statement per `values` event, not a write and a read). */
    setValuesOnly: (id: string, valuesJson: string) =>
      x()
        .updateTable("tl_threads")
        .set({ values_json: valuesJson })
        .where("thread_id", "=", id)
        .returning(["title", "title_source", "pin_pending"])
        .executeTakeFirst() as Promise<ThreadTitleColumns | undefined>,
    /** Writes the projection and records the revision for title search (one transaction). */
    setTitle: (id: string, title: string | null, sourceJson: string | null, pinPending: boolean, at: string) =>
      store.transaction(async () => {
        await x().updateTable("tl_threads").set({ title, title_source: sourceJson, pin_pending: pinPending ? 1 : 0, updated_at: at }).where("thread_id", "=", id).execute();
        if (title) await addRevision(id, title, sourceJson, at);
      }),
    clearPin: (id: string) => x().updateTable("tl_threads").set({ pin_pending: 0 }).where("thread_id", "=", id).execute(),
    clearPinIf: (id: string, title: string) =>
      x().updateTable("tl_threads").set({ pin_pending: 0 }).where("thread_id", "=", id).where("title", "=", title).execute(),
    setSyncPending: (id: string, on: boolean) => x().updateTable("tl_threads").set({ sync_pending: on ? 1 : 0 }).where("thread_id", "=", id).execute(),
    copyRevisions: (toId: string, fromId: string) =>
      x()
        .insertInto("tl_title_revisions")
        .columns(["thread_id", "title", "source", "at", "terms"])
        .expression((eb) =>
          eb
            .selectFrom("tl_title_revisions")
            .select(sql<string>`CAST(${toId} AS TEXT)`.as("thread_id"))
            .select(["title", "source", "at", "terms"])
            .where("thread_id", "=", fromId)
            .orderBy("id"),
        )
        .onConflict((oc) => oc.columns(["thread_id", "title"]).doNothing())
        .execute(),
    /** The thread, its checkpoints (the saver's tables, same database) and its rows: all or nothing. */
    deleteThread: (id: string) =>
      store.transaction(async () => {
        await deleteCheckpointRows(store, id);
        for (const table of ["tl_threads", "tl_title_revisions", "tl_thread_activity", "tl_runs", "tl_title_requests"] as const) {
          await x().deleteFrom(table).where("thread_id", "=", id).execute();
        }
      }),
    /** Every checkpoint and pending write of a thread under a new id (run inside the copy's transaction). */
    copyCheckpoints: (fromId: string, toId: string) => copyCheckpointRows(store, fromId, toId),
    threadsNeedingRepair: () =>
      x()
        .selectFrom("tl_threads")
        .selectAll()
        .where((eb) => eb.or([eb("status", "=", "busy"), eb("pin_pending", "=", 1), eb("sync_pending", "=", 1)]))
        .execute() as Promise<ThreadRow[]>,
    /**
     * Idle threads whose registry may differ from their latest checkpoint: that checkpoint is not
     * the one last mirrored (or none was), or the title columns no longer hold its title fact.
     * One indexed MAX per thread, no checkpoint is read (its latest is what getState reads).
     */
    driftCandidateIds: async () => {
      const latest = sql`(SELECT MAX(c.checkpoint_id) FROM checkpoints c WHERE c.thread_id = t.thread_id AND c.checkpoint_ns = '')`;
      const { rows } = await sql<{ thread_id: string }>`SELECT t.thread_id FROM tl_threads t
        WHERE t.status != 'busy' AND t.pin_pending = 0 AND NOT (t.synced_checkpoint_id IS NOT DISTINCT FROM ${latest}
          AND t.title IS NOT DISTINCT FROM t.synced_title AND t.title_source IS NOT DISTINCT FROM t.synced_title_source)`.execute(x());
      return rows.map((r) => r.thread_id);
    },
    /** `plan` is chosen from the match count unless given (tests compare the plans). */
    async searchThreads(query: ThreadQuery, plan?: TitlePlan): Promise<ThreadRow[]> {
      const { rows } = await sql<ThreadRow>`${await searchStatement(query, plan)}`.execute(x());
      return rows;
    },
    /** The same page as the response body: a JSON array of thread objects, made by the database (search-sql.ts, threadJsonColumn). */
    async searchThreadsJson(query: ThreadQuery): Promise<string> {
      const cols = sql`${threadJsonColumn(query, store.dialect)} AS j, t.thread_id`;
      const statement = buildSearch({ ...query, extract: undefined }, store.dialect, await titlePlan(query), cols);
      const { rows } = await sql<{ j: string }>`${statement}`.execute(x());
      return `[${rows.map((r) => r.j).join(",")}]`;
    },
    /** The title plan the store would choose for this query (tests, bench). */
    titlePlan,
    /** The activity prune logActivity runs every 500 writes, on demand (tests). */
    pruneActivity,
    /** The plan of the prune that follows one at `since` (tests: it must not walk every thread). */
    explainActivityPrune: (cutoff: string, since: string) => explain(sql`${pruneStatement(cutoff, since)}`),
    /** The search's query plan as the database reports it (EXPLAIN QUERY PLAN / EXPLAIN (FORMAT JSON)). */
    async explainSearch(query: ThreadQuery, plan?: TitlePlan): Promise<unknown[]> {
      return explain(await searchStatement(query, plan));
    },
    /** The plan probe's query plan (null when the query has nothing searchable). */
    async explainTitleProbe(query: ThreadQuery): Promise<unknown[] | null> {
      const probe = titleProbe(query, store.dialect, SHORT_WINDOW);
      return probe && explain(probe.sql);
    },
    /**
     * Planner statistics after a bulk load (tests, bench), so plans are the ones a settled database
     * gets. Postgres: VACUUM ANALYZE, as autovacuum would, which also moves GIN's pending list
     * (every fresh tsvector, scanned linearly by each search until then) into the index.
     */
    analyze: () => (store.dialect === "postgres" ? sql`VACUUM ANALYZE` : sql`ANALYZE`).execute(x()),
    async countThreads(query: ThreadQuery): Promise<number> {
      const { rows } = await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM tl_threads t WHERE ${buildThreadFilter(query, store.dialect)}`.execute(x());
      return Number(rows[0]?.n ?? 0);
    },
    insertRun: (row: Omit<RunRow, "updated_at" | "error" | "input_owed">) =>
      x().insertInto("tl_runs").values({ ...row, updated_at: row.created_at, error: null }).execute(),
    /** `inputOwed`: the run ends cancelled before it started, its message not yet in its thread (repair.ts). */
    setRunStatus: (runId: string, status: RunStatus, error: string | null, at: string, inputOwed = false) =>
      x().updateTable("tl_runs").set({ status, error, updated_at: at, input_owed: inputOwed ? 1 : 0 }).where("run_id", "=", runId).execute(),
    /** The owed message is in its thread now. */
    clearRunInputOwed: (runId: string) => x().updateTable("tl_runs").set({ input_owed: 0 }).where("run_id", "=", runId).execute(),
    getRun: (threadId: string, runId: string) =>
      x().selectFrom("tl_runs").selectAll().where("thread_id", "=", threadId).where("run_id", "=", runId).executeTakeFirst() as Promise<RunRow | undefined>,
    listRuns: (threadId: string, status: string | null, limit: number, offset: number) => {
      let q = x().selectFrom("tl_runs").selectAll().where("thread_id", "=", threadId);
      if (status != null) q = q.where("status", "=", status);
      return q.orderBy("created_at", "desc").orderBy("run_id", "desc").limit(limit).offset(offset).execute() as Promise<RunRow[]>;
    },
    deleteRun: (runId: string) => x().deleteFrom("tl_runs").where("run_id", "=", runId).execute(),
    /** Runs a restart must complete: pending or running ones, and those whose message is still owed, oldest first. */
    async unfinishedRuns(): Promise<RunRow[]> {
      // Two indexed reads (status; migration 6's partial index on the mark), merged in order.
      const going = (await x().selectFrom("tl_runs").selectAll().where("status", "in", ["pending", "running"]).execute()) as RunRow[];
      const owed = (await x().selectFrom("tl_runs").selectAll().where("input_owed", "=", 1).execute()) as RunRow[];
      const seen = new Set(going.map((r) => r.run_id));
      const all = [...going, ...owed.filter((r) => !seen.has(r.run_id))];
      return all.sort((a, b) => (a.created_at === b.created_at ? (a.run_id < b.run_id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
    },
    /** A title call can end after its thread was deleted (the run was cancelled by the delete): no orphan rows. */
    insertTitleRequest: (row: Omit<TitleRequestRow, "id">) =>
      store.transaction(async () => {
        if (await getThreadHead(row.thread_id)) await x().insertInto("tl_title_requests").values(row).execute();
      }),
    listTitleRequests: (threadId: string, limit: number, offset: number) =>
      x().selectFrom("tl_title_requests").selectAll().where("thread_id", "=", threadId).orderBy("id", "desc").limit(limit).offset(offset).execute() as Promise<TitleRequestRow[]>,
    /**
     * Local → accounts: threads made in local mode have no owner; they go to the FIRST account
     * (the oldest row of better-auth's `user` table, same database), all in one transaction.
     * Idempotent: run when a user is created and at every start in accounts mode. null = no account yet.
     */
    adoptUnownedThreads: (): Promise<{ owner: string; adopted: number } | null> =>
      store.transaction(async () => {
        const order = store.dialect === "postgres" ? sql`"createdAt", id` : sql`"createdAt", rowid`;
        const first = await sql<{ id: string }>`SELECT id FROM "user" ORDER BY ${order} LIMIT 1`.execute(store.exec());
        const owner = first.rows[0]?.id;
        if (!owner) return null;
        const update =
          store.dialect === "postgres"
            ? sql`UPDATE tl_threads SET metadata = jsonb_set(metadata::jsonb, '{owner}', to_jsonb(${owner}::text))::text
                  WHERE (metadata::jsonb -> 'owner') IS NULL OR jsonb_typeof(metadata::jsonb -> 'owner') = 'null'`
            : sql`UPDATE tl_threads SET metadata = json_set(metadata, '$.owner', ${owner}) WHERE json_type(metadata, '$.owner') IS NULL OR json_type(metadata, '$.owner') = 'null'`;
        const done = await update.execute(store.exec());
        return { owner, adopted: Number(done.numAffectedRows ?? 0n) };
      }),
    /**
     * Rollback removes the checkpoints a cancelled run wrote. Checkpoint ids are time-ordered
     * (uuid6), so "written after the run's starting checkpoint" is a string comparison. These are
     * the checkpointer's tables (created by its setup(), which the caller has run by then).
     */
    dropCheckpointsAfter: (threadId: string, checkpointId: string | null) => dropCheckpointRowsAfter(store, threadId, checkpointId ?? ""),
  };
}

/*
 * The checkpointer's own tables, not in RegistryDb's types, so these go through Kysely's `sql` tag.
 * SqliteSaver: `checkpoints` (metadata a JSON blob) and `writes`. PostgresSaver (its
 * migrations.js): `checkpoints` (metadata jsonb), `checkpoint_blobs` (channel values, keyed by
 * channel version, shared by the checkpoints that point at them) and `checkpoint_writes`.
 */
async function deleteCheckpointRows(store: Store, threadId: string) {
  const tables = store.dialect === "postgres" ? ["checkpoints", "checkpoint_blobs", "checkpoint_writes"] : ["checkpoints", "writes"];
  for (const t of tables) await sql`DELETE FROM ${sql.table(t)} WHERE thread_id = ${threadId}`.execute(store.exec());
}

/**
 * Rollback: the run's checkpoints and pending writes go. On Postgres its channel blobs stay: a
 * blob is keyed by channel version, not by checkpoint, and versions are not time-ordered ids, so
 * telling the run's own from the earlier ones would mean reading every remaining checkpoint's
 * versions; unreferenced blobs are inert (never read) and go with the thread.
 */
async function dropCheckpointRowsAfter(store: Store, threadId: string, after: string) {
  const writes = store.dialect === "postgres" ? "checkpoint_writes" : "writes";
  const cmp = store.dialect === "postgres" ? sql`checkpoint_id COLLATE "C" > ${after}` : sql`checkpoint_id > ${after}`;
  await sql`DELETE FROM ${sql.table(writes)} WHERE thread_id = ${threadId} AND ${cmp}`.execute(store.exec());
  await sql`DELETE FROM checkpoints WHERE thread_id = ${threadId} AND ${cmp}`.execute(store.exec());
}

// The checkpoint's metadata repeats the thread id (run metadata); the copy names its own.
async function copyCheckpointRows(store: Store, from: string, to: string) {
  const x = store.exec();
  if (store.dialect === "postgres") {
    await sql`INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
      SELECT CAST(${to} AS TEXT), checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,
        CASE WHEN metadata ? 'thread_id' THEN jsonb_set(metadata, '{thread_id}', to_jsonb(${to}::text)) ELSE metadata END
      FROM checkpoints WHERE thread_id = ${from}`.execute(x);
    await sql`INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
      SELECT CAST(${to} AS TEXT), checkpoint_ns, channel, version, type, blob FROM checkpoint_blobs WHERE thread_id = ${from}`.execute(x);
    await sql`INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
      SELECT CAST(${to} AS TEXT), checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob FROM checkpoint_writes WHERE thread_id = ${from}`.execute(x);
    return;
  }
  await sql`INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
    SELECT ${to}, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,
      CASE WHEN json_valid(CAST(metadata AS TEXT)) AND json_type(CAST(metadata AS TEXT), '$.thread_id') IS NOT NULL
        THEN CAST(json_set(CAST(metadata AS TEXT), '$.thread_id', ${to}) AS BLOB) ELSE metadata END
    FROM checkpoints WHERE thread_id = ${from}`.execute(x);
  await sql`INSERT INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value)
    SELECT ${to}, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value FROM writes WHERE thread_id = ${from}`.execute(x);
}
