import fs from "node:fs";
import path from "node:path";
import type Database from "better-sqlite3";

/**
 * Group commit for the app's SQLite file. Why: with `synchronous=FULL` every commit fsyncs the
 * WAL *on the main thread* (better-sqlite3 is synchronous), ~4 ms on this disk, and one
 * create + rename makes six commits, one run ~19: the whole server (reads and streams too) stood
 * still for each fsync, which capped writes at ~35 threads/s whatever the CPU.
 *
 * Now the connection runs `synchronous=NORMAL` (commits write their WAL frames with write(2), no
 * fsync; SQLite still syncs the WAL before each checkpoint and the database after it, so the
 * file stays consistent) and `flush()` makes everything committed so far durable with ONE
 * fdatasync of the WAL file, on libuv's thread pool, so the event loop keeps serving. Every API
 * request awaits `flush()` before its response leaves (lib/server/api.ts), so a write the API
 * acknowledged was on disk first, as under FULL; concurrent requests share one fsync. Writes no
 * request waits for (a run's later steps, background repair) are flushed within `idleMs`.
 *
 * What is given up, exactly: a power loss (not a process crash: the WAL frames are in the
 * kernel's page cache, which a killed process does not lose) may now take writes that no
 * response had acknowledged yet, from the last ≤ `idleMs`. Under FULL those would have been lost
 * too if the power went a moment earlier, before their commit; nobody was told they were saved.
 */
export interface Durability {
  /** Resolves once every commit made before this call is on disk. */
  flush(): Promise<void>;
  /** fsyncs done (tests). */
  readonly syncs: number;
  close(): void;
}

const registry = new WeakMap<Database.Database, Durability>();

/** The group commit of a connection opened by `openDurableSqlite`, if any (else commits are synchronous). */
export const durabilityOf = (db: Database.Database | undefined): Durability | null => (db && registry.get(db)) || null;

export interface DurabilityOptions {
  /** Longest time an unacknowledged commit stays unsynced. */
  idleMs?: number;
  /** The fsync itself (tests slow it down to prove a response waits for it). */
  syncFile?: (file: string) => Promise<void>;
}

/**
 * fsync on libuv's thread pool: `data` = fdatasync (the WAL's contents), else a full fsync (a
 * directory's entries). Opened per sync: SQLite may recreate the -wal file; fsync flushes the
 * file's data, whoever wrote it. A file that is not there (yet) has nothing to sync.
 */
async function syncPath(p: string, data: boolean) {
  const fh = await fs.promises.open(p, "r").catch((err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? null : Promise.reject(err)));
  if (!fh) return;
  try {
    await (data ? fh.datasync() : fh.sync());
  } finally {
    await fh.close();
  }
}
const fdatasync = (file: string) => syncPath(file, true);
const fsyncDir = (dir: string) => syncPath(dir, false);

/** Opens `dbPath` in WAL mode with group commit (see above). */
export function openDurableSqlite(DatabaseCtor: typeof Database, dbPath: string, opts: DurabilityOptions = {}): Database.Database {
  const db = new DatabaseCtor(dbPath);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  const durability = groupCommit(db, dbPath, opts);
  registry.set(db, durability);
  // Closing checkpoints the WAL into the file and syncs it (SQLite does, also under NORMAL).
  const close = db.close.bind(db);
  db.close = () => (durability.close(), close());
  return db;
}

function groupCommit(db: Database.Database, dbPath: string, opts: DurabilityOptions): Durability {
  const wal = `${dbPath}-wal`;
  const syncFile = opts.syncFile ?? fdatasync;
  // Rows changed on this connection so far (every writer shares it: registry, saver, better-auth).
  const changes = db.prepare("SELECT total_changes() AS n").pluck();
  let synced = -1;
  let dirSynced = false;
  let inflight: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let syncs = 0;

  const syncNow = async () => {
    // Read before the fsync is issued (JS is single-threaded): every change counted here is
    // committed, unless a transaction is open, whose changes this sync must not claim.
    const seen = Number(changes.get());
    const claim = db.inTransaction ? synced : seen;
    if (seen === synced && !db.inTransaction) return;
    syncs++;
    await syncFile(wal);
    if (!dirSynced) {
      await fsyncDir(path.dirname(dbPath)); // the -wal file's own directory entry, once
      dirSynced = true;
    }
    synced = Math.max(synced, claim);
  };

  const flush = (): Promise<void> => {
    if (!db.open) return Promise.resolve();
    if (!inflight) {
      inflight = syncNow().finally(() => (inflight = null));
      return inflight;
    }
    // A sync already under way may have started before this caller's commit: join the next one.
    queued ??= inflight.then(
      () => ((queued = null), flush()),
      () => ((queued = null), flush()),
    );
    return queued;
  };

  const timer = setInterval(() => {
    if (db.open && Number(changes.get()) !== synced) flush().catch((err) => console.error("[db] WAL sync failed", err));
  }, opts.idleMs ?? 100);
  timer.unref?.();

  return {
    flush,
    get syncs() {
      return syncs;
    },
    close: () => clearInterval(timer),
  };
}
