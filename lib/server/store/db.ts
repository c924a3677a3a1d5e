import { AsyncLocalStorage } from "node:async_hooks";
import type Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, type Generated, type Transaction } from "kysely";
import pg from "pg";
import { connectionGate, type ConnectionGate } from "@/lib/agent/sqlite-gate";

/** The registry's tables as Kysely sees them (migrations.ts creates them). */
export interface ThreadsTable {
  thread_id: string;
  created_at: string;
  updated_at: string;
  activity_at: string;
  metadata: string;
  status: string;
  values_json: string | null;
  interrupts_json: string | null;
  title: string | null;
  title_source: string | null;
  pin_pending: number;
  sync_pending: Generated<number>;
  /** What the registry last mirrored: that checkpoint's id and title fact (see migrations.ts). */
  synced_checkpoint_id: Generated<string | null>;
  synced_title: Generated<string | null>;
  synced_title_source: Generated<string | null>;
}

export interface TitleRevisionsTable {
  id: Generated<number>;
  thread_id: string;
  title: string;
  source: string | null;
  at: string;
  terms: string;
}

export interface RunsTable {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  metadata: string;
  kwargs: string;
  multitask_strategy: string | null;
  error: string | null;
  /** 1 while a cancelled queued run's message waits to be written into its thread (migration 6). */
  input_owed: Generated<number>;
}

export interface TitleRequestsTable {
  id: Generated<number>;
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

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  last_four: string;
  created_at: string;
  revoked_at: string | null;
}

export interface RegistryDb {
  tl_threads: ThreadsTable;
  tl_title_revisions: TitleRevisionsTable;
  tl_thread_activity: { thread_id: string; at: string };
  tl_runs: RunsTable;
  tl_title_requests: TitleRequestsTable;
  tl_api_keys: ApiKeysTable;
  tl_meta: { key: string; value: string };
}

export type StoreDialect = "sqlite" | "postgres";
type Executor = Kysely<RegistryDb> | Transaction<RegistryDb>;

/**
 * The registry's database handle: one Kysely instance, the dialect (for the few statements that
 * differ), and transactions that every query joins on its own. `exec()` is the open transaction
 * of the current async context, or the plain handle: callers never pass a transaction around,
 * and a query issued inside a transaction can never wait for the connection that transaction holds.
 */
export interface Store {
  kysely: Kysely<RegistryDb>;
  dialect: StoreDialect;
  exec(): Executor;
  /** Runs `fn` in one transaction; nested calls join the outer one. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Runs `fn` once the transaction of this async context commits (never if it rolls back); at once outside one. */
  afterCommit(fn: () => void): void;
  /** The raw SQLite connection (SQLite only): the checkpointer's, shared. */
  sqlite?: Database.Database;
  /** Closes what the store opened itself (the Postgres pool); the SQLite connection is its owner's. */
  close(): Promise<void>;
}

function makeStore(kysely: Kysely<RegistryDb>, dialect: StoreDialect, gate: ConnectionGate | null, sqlite?: Database.Database): Store {
  const current = new AsyncLocalStorage<{ trx: Transaction<RegistryDb>; open: boolean; committed: (() => void)[] }>();
  const inTrx = () => {
    const s = current.getStore();
    return s?.open ? s : null;
  };
  const run = async <T>(fn: () => Promise<T>) => {
    const committed: (() => void)[] = [];
    const result = await kysely.transaction().execute(async (trx) => {
      const hold = { trx, open: true, committed };
      try {
        return await current.run(hold, fn);
      } finally {
        hold.open = false;
      }
    });
    for (const f of committed) f();
    return result;
  };
  return {
    kysely,
    dialect,
    sqlite,
    exec: () => inTrx()?.trx ?? kysely,
    transaction: (fn) => (inTrx() ? fn() : gate ? gate.withExclusive(() => run(fn)) : run(fn)),
    afterCommit: (fn) => {
      const open = inTrx();
      if (open) open.committed.push(fn);
      else fn();
    },
    close: async () => {
      if (dialect === "postgres") await kysely.destroy();
    },
  };
}

/**
 * better-sqlite3 compiles a statement on every prepare(); Kysely prepares each query it runs.
 * The registry's statements are a small fixed set (search shapes vary a little), so compiled
 * statements are kept, a bounded number of them.
 */
function cachingConnection(db: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return {
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = db.prepare(sql);
        if (cache.size >= 500) cache.delete(cache.keys().next().value!);
        cache.set(sql, stmt);
      }
      return stmt;
    },
    close() {
      // The connection belongs to the checkpointer's owner (runtime.ts); it closes it.
    },
  };
}

const sqliteStores = new WeakMap<Database.Database, Store>();

/** The registry over the checkpointer's own SQLite connection (one file, one transaction domain). */
export function sqliteStore(db: Database.Database): Store {
  let store = sqliteStores.get(db);
  if (!store) {
    const kysely = new Kysely<RegistryDb>({ dialect: new SqliteDialect({ database: cachingConnection(db) }) });
    sqliteStores.set(db, (store = makeStore(kysely, "sqlite", connectionGate(db), db)));
  }
  return store;
}

/**
 * The registry on Postgres (DATABASE_URL). The checkpointer (PostgresSaver) has its own pool on
 * the same database: registry transactions and checkpoint writes are separate connections, so
 * they cannot leak into each other; delete/copy/rollback touch the saver's tables inside ours.
 */
export function postgresStore(connectionString: string): Store {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client's error (the server restarting) must not crash the process; the next query reconnects.
  pool.on("error", (err) => console.error("[store] Postgres connection error", err.message));
  return makeStore(new Kysely<RegistryDb>({ dialect: new PostgresDialect({ pool }) }), "postgres", null);
}
