import { sql, type ColumnDefinitionBuilder, type Transaction } from "kysely";
import type { RegistryDb, Store, StoreDialect } from "./db";
import { searchTerms } from "@/lib/title/search-words";
import { SEARCH_INDEX_VERSION, SEARCH_TOKENIZER } from "./search-terms";

/**
 * Versioned schema migrations, run at start on either database, each in one transaction and
 * recorded in `tl_schema_migrations`. Append a migration to change the schema; never change what
 * one that has shipped creates (rewriting how it is written is fine while schema-shape.test.ts
 * holds). Migration 1 is the schema as the first versioned release found it: on a file from an
 * earlier release (tables there, no version table) it is idempotent and performs the upgrades
 * that used to be done ad hoc at every start (added columns, activity order, the search index).
 *
 * The tables (both dialects):
 * - tl_threads: one row per thread, the list's only source (search never reads checkpoints):
 *   status, metadata, a values snapshot and the title projection (title, title_source).
 *   `updated_at` moves on any change (LangGraph's meaning); `activity_at` only when the
 *   conversation itself moves (created, a run starts or ends, a state update): the list's order.
 *   `pin_pending` = a user rename accepted while a run was going that the checkpoint does not
 *   have yet; the run manager (or restart repair) writes it in and clears the flag.
 *   `sync_pending` = an idle-thread write (rename, regenerate, state update) is under way; it
 *   writes the checkpoint first and the registry second, so a crash in between leaves this flag
 *   for restart repair to re-sync the registry from the checkpoint.
 *   `synced_checkpoint_id`, `synced_title`, `synced_title_source` (migration 2) = the checkpoint the
 *   registry last mirrored and that checkpoint's title fact: when the thread's latest checkpoint is
 *   still that one and the title columns still hold that fact, the registry cannot have drifted,
 *   so restart's drift pass compares in SQL and reads only the threads where they differ.
 * - tl_title_revisions: every title a thread has had with its search terms (lib/title/search-words.ts),
 *   indexed (SQLite: FTS5 table tl_title_fts; Postgres: a tsvector column with a GIN index), so
 *   title search finds a thread by its current and earlier titles.
 * - tl_thread_activity: each thread's activity instants, so "order as of time T" is computable for
 *   stable snapshot paging. Pruned to what an as-of query within the retention window needs.
 * - tl_runs: run rows, so a restart can see what was pending or running when the process died.
 * - tl_title_requests: the audit of every title-model request, deleted with its thread.
 * - tl_api_keys: hashed API keys (lib/server/store/api-keys.ts).
 * - tl_meta: key/value facts about the data (the search index's version).
 */

type Db = Transaction<RegistryDb>;
interface Migration {
  version: number;
  name: string;
  up: Record<StoreDialect, (db: Db) => Promise<void>>;
}

const run = async (db: Db, ddl: string) => {
  for (const stmt of ddl.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean)) await sql.raw(stmt).execute(db);
};

/**
 * The tables and indexes of migration 1, written once for both dialects with Kysely's schema
 * builder; what the dialects need differently is said where it differs. `IF NOT EXISTS`
 * throughout: on a SQLite file from an unversioned release the tables are there already (columns
 * those releases added later are added by SQLITE_ADDED_COLUMNS). Postgres: ids and instants
 * compare byte-wise (COLLATE "C") as they do in SQLite, so list order and cursors agree across
 * dialects; title search's tsvector is built from the folded terms as they are (array_to_tsvector:
 * no parser, so `c++` and emoji stay whole lexemes), GIN-indexed. schema-shape.test.ts holds what
 * this creates on each database.
 */
async function createTables(db: Db, dialect: StoreDialect) {
  const pg = dialect === "postgres";
  // Ids and instants: byte-wise order on Postgres too.
  const key = pg ? sql`text collate "C"` : sql`text`;
  const serial = (c: ColumnDefinitionBuilder) => (pg ? c.generatedAlwaysAsIdentity().primaryKey() : c.primaryKey().autoIncrement());
  const s = db.schema;
  await s
    .createTable("tl_threads")
    .ifNotExists()
    .addColumn("thread_id", key, (c) => c.primaryKey())
    .addColumn("created_at", key, (c) => c.notNull())
    .addColumn("updated_at", key, (c) => c.notNull())
    .addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("idle"))
    .addColumn("values_json", "text")
    .addColumn("interrupts_json", "text")
    .addColumn("title", "text")
    .addColumn("title_source", "text")
    .addColumn("pin_pending", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("activity_at", key)
    .addColumn("sync_pending", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  for (const [name, columns] of [
    ["tl_threads_updated", ["updated_at", "thread_id"]],
    ["tl_threads_created", ["created_at", "thread_id"]],
    ["tl_threads_status", ["status"]],
  ] as const) {
    await s.createIndex(name).ifNotExists().on("tl_threads").columns([...columns]).execute();
  }
  // The restart repair's scan (SQLite reads the status index and the flags instead).
  if (pg) {
    await s.createIndex("tl_threads_repair").on("tl_threads").column("thread_id").where(sql<boolean>`status = 'busy' OR pin_pending = 1 OR sync_pending = 1`).execute();
  }
  await s
    .createTable("tl_title_revisions")
    .ifNotExists()
    .addColumn("id", "integer", serial)
    .addColumn("thread_id", key, (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("source", "text")
    .addColumn("at", key, (c) => c.notNull())
    .addColumn("terms", "text", (c) => c.notNull().defaultTo(""))
    .addUniqueConstraint("tl_title_revisions_thread_id_title_key", ["thread_id", "title"])
    // SQLite indexes the terms with FTS5 instead (ensureSearchIndex).
    .$call((t) => (pg ? t.addColumn("terms_tsv", sql`tsvector`, (c) => c.generatedAlwaysAs(sql`array_to_tsvector(string_to_array(terms, ' '))`).stored()) : t))
    .execute();
  if (pg) await s.createIndex("tl_title_revisions_search").on("tl_title_revisions").using("gin").column("terms_tsv").execute();
  await s
    .createTable("tl_thread_activity")
    .ifNotExists()
    .addColumn("thread_id", key, (c) => c.notNull())
    .addColumn("at", key, (c) => c.notNull())
    .addPrimaryKeyConstraint("tl_thread_activity_pkey", ["thread_id", "at"])
    .$call((t) => (pg ? t : t.modifyEnd(sql`without rowid`)))
    .execute();
  await s
    .createTable("tl_runs")
    .ifNotExists()
    .addColumn("run_id", key, (c) => c.primaryKey())
    .addColumn("thread_id", key, (c) => c.notNull())
    .addColumn("assistant_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", key, (c) => c.notNull())
    .addColumn("updated_at", key, (c) => c.notNull())
    .addColumn("metadata", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("kwargs", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("multitask_strategy", "text")
    .addColumn("error", "text")
    .execute();
  await s.createIndex("tl_runs_thread").ifNotExists().on("tl_runs").columns(["thread_id", "created_at"]).execute();
  await s.createIndex("tl_runs_status").ifNotExists().on("tl_runs").column("status").execute();
  await s
    .createTable("tl_title_requests")
    .ifNotExists()
    .addColumn("id", "integer", serial)
    .addColumn("thread_id", key, (c) => c.notNull())
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("system", "text")
    .addColumn("user", "text", (c) => c.notNull())
    .addColumn("max_tokens", "integer", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("title", "text")
    .addColumn("reason", "text")
    .addColumn("latency_ms", "integer", (c) => c.notNull())
    .execute();
  await s.createIndex("tl_title_requests_thread").ifNotExists().on("tl_title_requests").columns(["thread_id", "id"]).execute();
  await s
    .createTable("tl_meta")
    .ifNotExists()
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  await s
    .createTable("tl_api_keys")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("last_four", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await s.createIndex("tl_api_keys_user").ifNotExists().on("tl_api_keys").column("user_id").execute();
}

/** Columns the unversioned releases added over time; ALTER TABLE has no IF NOT EXISTS in SQLite. */
const SQLITE_ADDED_COLUMNS: { table: string; column: string; ddl: string }[] = [
  { table: "tl_threads", column: "sync_pending", ddl: "ALTER TABLE tl_threads ADD COLUMN sync_pending INTEGER NOT NULL DEFAULT 0" },
  { table: "tl_threads", column: "activity_at", ddl: "ALTER TABLE tl_threads ADD COLUMN activity_at TEXT" },
  { table: "tl_title_revisions", column: "terms", ddl: "ALTER TABLE tl_title_revisions ADD COLUMN terms TEXT NOT NULL DEFAULT ''" },
];

const SQLITE_SEARCH_INDEX = `
CREATE VIRTUAL TABLE tl_title_fts USING fts5(
  terms, content='tl_title_revisions', content_rowid='id', tokenize="${SEARCH_TOKENIZER.replaceAll('"', '""')}"
);
CREATE TRIGGER tl_title_revisions_ai AFTER INSERT ON tl_title_revisions BEGIN
  INSERT INTO tl_title_fts (rowid, terms) VALUES (new.id, new.terms);
END;
CREATE TRIGGER tl_title_revisions_ad AFTER DELETE ON tl_title_revisions BEGIN
  INSERT INTO tl_title_fts (tl_title_fts, rowid, terms) VALUES ('delete', old.id, old.terms);
END
`;

/**
 * A new tokenizer or term rule (SEARCH_INDEX_VERSION) means every revision's terms and the whole
 * index are rebuilt. Checked at every start, after the migrations: it is data, not schema.
 */
export async function ensureSearchIndex(db: Db, dialect: StoreDialect) {
  const row = await db.selectFrom("tl_meta").select("value").where("key", "=", "search_index_version").executeTakeFirst();
  if (row?.value === String(SEARCH_INDEX_VERSION)) return;
  if (dialect === "sqlite") {
    await run(db, "DROP TRIGGER IF EXISTS tl_title_revisions_ai;\nDROP TRIGGER IF EXISTS tl_title_revisions_ad;\nDROP TABLE IF EXISTS tl_title_fts");
  }
  for (const r of await db.selectFrom("tl_title_revisions").select(["id", "title"]).execute()) {
    await db.updateTable("tl_title_revisions").set({ terms: searchTerms(r.title) }).where("id", "=", r.id).execute();
  }
  if (dialect === "sqlite") {
    // The trigger bodies hold semicolons: created one by one.
    for (const stmt of SQLITE_SEARCH_INDEX.split(/;\n(?=CREATE)/)) await sql.raw(stmt.trim()).execute(db);
    await sql`INSERT INTO tl_title_fts (tl_title_fts) VALUES ('rebuild')`.execute(db);
  }
  await db
    .insertInto("tl_meta")
    .values({ key: "search_index_version", value: String(SEARCH_INDEX_VERSION) })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: String(SEARCH_INDEX_VERSION) }))
    .execute();
}

/** The list's order (after the columns older SQLite files lacked are added). */
const createActivityIndex = (db: Db) => db.schema.createIndex("tl_threads_activity").ifNotExists().on("tl_threads").columns(["activity_at", "thread_id"]).execute();

async function sqliteInitial(db: Db) {
  await createTables(db, "sqlite");
  for (const { table, column, ddl } of SQLITE_ADDED_COLUMNS) {
    const cols = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`.execute(db);
    if (!cols.rows.some((c) => c.name === column)) await sql.raw(ddl).execute(db);
  }
  // Older builds did not tell activity from renames; their last touch is the best guess there is.
  await sql`UPDATE tl_threads SET activity_at = updated_at WHERE activity_at IS NULL`.execute(db);
  await createActivityIndex(db);
  await ensureSearchIndex(db, "sqlite");
}

/*
 * Migration 2, for the read side at scale (search-sql.ts, buildSearch):
 * - `owner`: the metadata's owner when it is a string, else NULL, kept by the database itself
 *   (a generated column: every write path, json_set in the local → accounts adoption included, keeps
 *   it right), indexed with the list order so accounts mode's per-user first page is an index walk.
 * - the activity log gets each thread's `activity_at` (files from before the log recorded every
 *   activity had `activity_at` copied from `updated_at`), so "as of T" is `activity_at` for any
 *   thread not active since T, which lets the first page walk the activity index.
 */
const OWNER_ACTIVITY_INDEX = "CREATE INDEX tl_threads_owner_activity ON tl_threads (owner, activity_at, thread_id)";
const ACTIVITY_BACKFILL = `INSERT INTO tl_thread_activity (thread_id, at) SELECT thread_id, activity_at FROM tl_threads
  WHERE activity_at IS NOT NULL ON CONFLICT (thread_id, at) DO NOTHING`;

const ownerAndActivity: Migration["up"] = {
  sqlite: async (db) => {
    await run(
      db,
      `ALTER TABLE tl_threads ADD COLUMN owner TEXT GENERATED ALWAYS AS
        (CASE WHEN json_type(metadata, '$.owner') = 'text' THEN json_extract(metadata, '$.owner') END) VIRTUAL;
      ${OWNER_ACTIVITY_INDEX};
      ${ACTIVITY_BACKFILL}`,
    );
  },
  postgres: async (db) => {
    await run(
      db,
      `ALTER TABLE tl_threads ADD COLUMN owner TEXT COLLATE "C" GENERATED ALWAYS AS
        (CASE WHEN jsonb_typeof(metadata::jsonb -> 'owner') = 'string' THEN metadata::jsonb ->> 'owner' END) STORED;
      ${OWNER_ACTIVITY_INDEX};
      ${ACTIVITY_BACKFILL}`,
    );
  },
};

/*
 * Migration 4: `starred`, the metadata's `starred` being JSON true (1/true, else 0/false, NULL
 * without metadata), generated like `owner` and indexed with the list order, so the sidebar's
 * starred page (metadata { starred: true }) walks the index instead of testing every thread's
 * JSON: it ran on every page load and grew with N even with nothing starred.
 */
const STARRED_ACTIVITY_INDEX = "CREATE INDEX tl_threads_starred_activity ON tl_threads (starred, activity_at, thread_id)";
const starredColumn: Migration["up"] = {
  sqlite: (db) =>
    run(db, `ALTER TABLE tl_threads ADD COLUMN starred INTEGER GENERATED ALWAYS AS (json_type(metadata, '$."starred"') = 'true') VIRTUAL;
      ${STARRED_ACTIVITY_INDEX}`),
  postgres: (db) =>
    run(db, `ALTER TABLE tl_threads ADD COLUMN starred BOOLEAN GENERATED ALWAYS AS ((metadata::jsonb #> '{starred}') = 'true'::jsonb) STORED;
      ${STARRED_ACTIVITY_INDEX}`),
};

/*
 * Migration 5: the activity log indexed by instant, so a prune visits only the threads active
 * since the last one (queries.ts, pruneActivity) instead of every thread's rows.
 */
const ACTIVITY_AT_INDEX = "CREATE INDEX tl_thread_activity_at ON tl_thread_activity (at)";
// The mark is rare and read at start only: a partial index keeps that read off the whole table.
const RUN_INPUT_OWED = `ALTER TABLE tl_runs ADD COLUMN input_owed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tl_runs_input_owed ON tl_runs (run_id) WHERE input_owed = 1`;

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "initial",
    up: {
      sqlite: sqliteInitial,
      postgres: async (db) => {
        await createTables(db, "postgres");
        await createActivityIndex(db);
        await ensureSearchIndex(db, "postgres");
      },
    },
  },
  { version: 2, name: "owner column, activity log backfill", up: ownerAndActivity },
  {
    version: 3,
    name: "synced-checkpoint",
    up: {
      sqlite: (db) =>
        run(db, ["synced_checkpoint_id", "synced_title", "synced_title_source"].map((c) => `ALTER TABLE tl_threads ADD COLUMN ${c} TEXT`).join(";\n")),
      postgres: (db) =>
        run(db, 'ALTER TABLE tl_threads ADD COLUMN synced_checkpoint_id TEXT COLLATE "C", ADD COLUMN synced_title TEXT, ADD COLUMN synced_title_source TEXT'),
    },
  },
  { version: 4, name: "starred column", up: starredColumn },
  { version: 5, name: "activity instant index", up: { sqlite: (db) => run(db, ACTIVITY_AT_INDEX), postgres: (db) => run(db, ACTIVITY_AT_INDEX) } },
  // A queued run cancelled before it started keeps its message for the thread, written once the run
  // ahead of it ends; until then its row says so, so a crash in between does not lose it (repair.ts).
  { version: 6, name: "run input owed", up: { sqlite: (db) => run(db, RUN_INPUT_OWED), postgres: (db) => run(db, RUN_INPUT_OWED) } },
];

/** Applies every migration the database has not had yet, in order; returns the versions applied. */
export async function migrate(store: Store): Promise<number[]> {
  const applied: number[] = [];
  await store.transaction(async () => {
    const db = store.exec() as Db;
    await sql`CREATE TABLE IF NOT EXISTS tl_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`.execute(db);
    // Two processes starting at once on one Postgres database: the second waits here, then finds nothing to do.
    if (store.dialect === "postgres") await sql`SELECT pg_advisory_xact_lock(hashtext('threadline:migrations'))`.execute(db);
    const done = new Set((await sql<{ version: number }>`SELECT version FROM tl_schema_migrations`.execute(db)).rows.map((r) => Number(r.version)));
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await m.up[store.dialect](db);
      await sql`INSERT INTO tl_schema_migrations (version, name, applied_at) VALUES (${m.version}, ${m.name}, ${new Date().toISOString()})`.execute(db);
      applied.push(m.version);
    }
    await ensureSearchIndex(db, store.dialect);
  });
  return applied;
}
