import fs from "node:fs";
import pg from "pg";

/** A second process on a database this one serves. */
export class DatabaseInUseError extends Error {
  name = "DatabaseInUseError";
}

/** Why the embedded server is one process per database, and what to do for more. */
export const EMBEDDED_SERVER_REASON =
  "The embedded server runs its runs in-process, so one process serves one database; for more than one process, " +
  "put the app in front of a LangGraph server (LANGGRAPH_API_URL, see the README).";

/** The one sentence both databases use when a second process is refused; `reason` says why there is one. */
export const inUseMessage = (what: string, holder: string, reason = EMBEDDED_SERVER_REASON) =>
  `${what} is already served by another Threadline process (${holder}). ${reason}`;

const readPid = (file: string): number | null => {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
};

/** A killed process stays in the table as a zombie until its parent reaps it; it serves nothing. */
const zombie = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return false; // no /proc (not Linux) or already gone: kill(0) decides
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !zombie(pid);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/**
 * One Threadline process per SQLite file: `<file>.lock` holds the owner's pid, created exclusively.
 * A lock whose process is gone (a crash, a kill -9) is stale and taken over, so nothing needs
 * cleaning up by hand after a crash; the file is removed when this process exits.
 */
export function lockSqliteFile(dbPath: string, reason = EMBEDDED_SERVER_REASON): void {
  const lockPath = `${dbPath}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: "wx" });
      process.once("exit", () => {
        if (readPid(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
      });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const pid = readPid(lockPath);
    if (pid === process.pid) return; // this process holds it already (a reopen)
    if (pid != null && alive(pid)) throw new DatabaseInUseError(inUseMessage(dbPath, `pid ${pid}, lock file ${lockPath}`, reason));
    // Stale: its process is gone. Removed only if it still names that process (another starter may have won).
    if (readPid(lockPath) === pid) fs.rmSync(lockPath, { force: true });
  }
  throw new DatabaseInUseError(inUseMessage(dbPath, `lock file ${lockPath}`, reason));
}

/** One key for every Threadline process, per database (advisory locks are per database). */
const ADVISORY_KEY = 0x7468_7264; // "thrd"

/** How soon a lost lock is asked for again while Postgres is not back (on a new connection). */
const RETAKE_EVERY_MS = 1_000;
/**
 * How long one wait in Postgres' queue for the lock lasts while our own old session still holds
 * it (told to end); then the holders are read again and the wait starts over.
 */
const OWN_SESSION_WAIT_MS = 5_000;
/**
 * How often the lock's connection is checked. A connection cut off without a word (a host gone,
 * a failover, a partition) ends no socket, so only a query that gets no answer shows it.
 */
const CHECK_EVERY_MS = 15_000;
/** How long a connect, or the check's query, may take before the connection counts as lost. */
const ANSWER_WITHIN_MS = 10_000;

export interface PostgresLockOptions {
  /**
   * The lock's connection ended and another process took the lock before this one could take it
   * back: two processes would run runs on one database, so by default this process stops (exit
   * code 3, the message on stderr).
   */
  onTaken?: (err: DatabaseInUseError) => void;
  /** Tests: how often the connection is checked, how long an answer may take, and one wait in line for our own old session. */
  checkEveryMs?: number;
  answerWithinMs?: number;
  ownSessionWaitMs?: number;
}

const stopServing = (err: DatabaseInUseError) => {
  console.error(`[store] ${err.message} This process stops.`);
  process.exit(3);
};

/** One lock's sessions carry one name, so a retake can tell its own old session by it (not by a pid, which Postgres reuses). */
const newSessionName = () => `threadline-lock-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;

/** The sessions holding the lock on this database, and whether each is one of this process's. */
const LOCK_HOLDERS_SQL = `SELECT l.pid, a.application_name = $2 AS ours FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1 AND l.granted`;

/** The lock's connection: it must not crash the process on an error; its "end", or a failed check, decides what happens next. */
function lockConnection(connectionString: string, sessionName: string, answerWithinMs: number, what = "connection"): pg.Client {
  const client = new pg.Client({
    connectionString,
    application_name: sessionName,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    connectionTimeoutMillis: answerWithinMs,
    query_timeout: answerWithinMs,
  });
  client.on("error", (err) => console.error(`[store] the one-process lock's ${what} failed:`, err.message));
  return client;
}

/** How long a close may wait for the server to say goodbye before the socket is simply dropped. */
const CLOSE_WITHIN_MS = 1_000;

/**
 * Ends a lock connection, never waiting longer than CLOSE_WITHIN_MS: pg's end() waits for the
 * server to close the socket, which over a link gone silent takes until TCP gives up (minutes).
 * Postgres frees the session's lock on a dropped socket as on a goodbye.
 */
async function closeNow(client: pg.Client): Promise<void> {
  const timer = new Promise((resolve) => setTimeout(resolve, CLOSE_WITHIN_MS).unref());
  await Promise.race([client.end().catch(() => undefined), timer]);
  // Not in pg's typings: the socket under the connection.
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/**
 * Connects a lock connection and names its session. Named again after connecting: an
 * application_name in DATABASE_URL would otherwise win over the config's, and a retake could not
 * tell its own old session.
 */
async function connectAs(client: pg.Client, name: string): Promise<void> {
  await client.connect();
  await client.query("SELECT set_config('application_name', $1, false)", [name]);
  // The held connection is idle between checks: a role's idle_session_timeout (Postgres 14+)
  // would end it and free the lock with nobody in line.
  await client.query("SET idle_session_timeout = 0").catch((err: { code?: string }) => {
    if (err.code !== "42704") throw err; // no such setting before 14
  });
}

/** Whether a session waits in Postgres' queue for the lock (asked, not granted). */
const QUEUED_SQL = `SELECT 1 FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND classid = 0 AND objid = $2 AND objsubid = 1 AND NOT granted`;
/** Ends the given sessions, if they still carry this lock's name (a pid read a moment ago may have gone and been reused). */
const END_OWN_SQL = `SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE pid = ANY($1::int[]) AND application_name = $2`;

/** What a retake needs to know of its lock: its sessions' name, where, and how long a wait in line or an answer may take. */
interface LockSession {
  name: string;
  connectionString: string;
  waitMs: number;
  answerWithinMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A retake's second connection, made once and kept while it lasts: it watches the retake's wait
 * in line and ends the old sessions. Connected before a wait starts, so its connect never eats
 * into the wait.
 */
function enderFor(session: LockSession) {
  let client: pg.Client | null = null;
  return {
    async get(): Promise<pg.Client> {
      if (client) return client;
      const c = lockConnection(session.connectionString, `${session.name}-ender`, session.answerWithinMs, "second connection");
      try {
        await connectAs(c, `${session.name}-ender`);
      } catch (err) {
        await closeNow(c);
        throw err;
      }
      return (client = c);
    },
    async end(): Promise<void> {
      const c = client;
      client = null;
      if (c) await closeNow(c);
    },
  };
}
type Ender = ReturnType<typeof enderFor>;

/** Set once per retake connection: how long one wait in line lasts, and how soon an abandoned one notices. */
const preparedForWaits = new WeakSet<pg.Client>();
async function prepareForWaits(client: pg.Client, waitMs: number): Promise<void> {
  if (preparedForWaits.has(client)) return;
  await client.query(`SET lock_timeout = ${Math.max(1, Math.floor(waitMs))}`);
  // A statement_timeout set for the role or database must not cut the wait short.
  await client.query("SET statement_timeout = 0");
  // A wait a release abandons (its socket closed) ends within a tenth of a second rather than
  // stay queued, and perhaps be granted, until lock_timeout. Postgres 14+ on a platform that can
  // watch a socket so; elsewhere the wait runs to its lock_timeout.
  await client.query("SET client_connection_check_interval = 100").catch((err: { code?: string }) => {
    if (err.code !== "42704" && err.code !== "22023") throw err; // no such setting (before 14); not on this platform
  });
  preparedForWaits.add(client);
}

/**
 * Waits in Postgres' queue for the lock our own old sessions hold, up to `session.waitMs`, and
 * ends those sessions only once the wait is queued (seen from the ender): Postgres then hands the
 * lock to the waiting session as the holder goes, and another process's try, which yields to a
 * queued wait, cannot get in between. Ended first, even in the same statement as the wait, an idle
 * backend can exit and let go of the lock before the wait is queued, and a try in that moment wins
 * it (process-lock.test.ts, "exits the moment it is told to"). Its backend's pid once held; null
 * when the wait ran out (the old sessions are still there, or were not told to end in time).
 */
async function endAndWaitInLine(client: pg.Client, ownPid: number, oldPids: number[], session: LockSession, ender: Ender): Promise<number | null> {
  const watcher = await ender.get();
  await prepareForWaits(client, session.waitMs);
  const askedAt = Date.now();
  let answered = false;
  const waiting = client.query<{ pid: number }>("SELECT pg_advisory_lock($1), pg_backend_pid() AS pid", [ADVISORY_KEY]).finally(() => (answered = true));
  waiting.catch(() => undefined); // awaited below, after the ender's part, whatever becomes of it
  try {
    for (let poll = 0; !answered; poll++) {
      if ((await watcher.query(QUEUED_SQL, [ownPid, ADVISORY_KEY])).rowCount) {
        // Not near the wait's end: ended with nobody in line, the old session would free the lock.
        if (!answered && Date.now() - askedAt < session.waitMs / 2) await watcher.query(END_OWN_SQL, [oldPids, session.name]);
        break;
      }
      await sleep(Math.min(50, 2 ** poll));
    }
  } catch (err) {
    // The wait goes on without its ender (lock_timeout bounds it); the next round makes a new one.
    console.error("[store] the one-process lock's second connection failed:", (err as Error).message);
    await ender.end();
  }
  try {
    return (await waiting).rows[0].pid;
  } catch (err) {
    if ((err as { code?: string }).code === "55P03") return null; // lock_not_available: still held
    throw err;
  }
}

/**
 * Asks for the lock on `client`: its backend's pid once held. When only older sessions of this
 * same lock (`session.name`) hold it (cut off without Postgres noticing yet, or only slow to
 * answer), this session waits in line for it and they are then told to end (endAndWaitInLine;
 * null if the wait ran out). Without an ender (the first take) that never happens: the name is
 * new. DatabaseInUseError when another session holds it.
 */
async function tryAdvisoryLock(client: pg.Client, reason: string, session: LockSession, ender: Ender | null): Promise<number | null> {
  // A few tries only for a holder that lets go between the try and the read of who holds it.
  for (let attempt = 1; ; attempt++) {
    const { rows } = await client.query<{ ok: boolean; pid: number }>("SELECT pg_try_advisory_lock($1) AS ok, pg_backend_pid() AS pid", [ADVISORY_KEY]);
    if (rows[0].ok) return rows[0].pid;
    const holders = (await client.query<{ pid: number; ours: boolean | null }>(LOCK_HOLDERS_SQL, [ADVISORY_KEY, session.name])).rows;
    if (holders.length > 0 && holders.every((h) => h.ours) && ender) return endAndWaitInLine(client, rows[0].pid, holders.map((h) => h.pid), session, ender);
    if (holders.length === 0 && attempt < 5) continue;
    const db = (await client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]?.db ?? "the database";
    throw new DatabaseInUseError(inUseMessage(`Postgres database "${db}"`, "it holds the advisory lock", reason));
  }
}

/**
 * One Threadline process per Postgres database: a session advisory lock, held on a connection of
 * its own for the life of the process. The server frees it when that connection ends, so a crashed
 * process leaves nothing behind. The same goes for a connection this process loses (Postgres
 * restarted, the backend terminated, or a check every 15 s unanswered for 10 s): then the lock is
 * taken again on a new connection, retried each second while Postgres is away. The lost connection
 * is left open until then: if its session still holds the lock, the new one first waits in
 * Postgres' queue for it, and only then is the old one told to end, so the lock passes straight
 * to the new session as the old one goes. If another process got it first, `onTaken` (this
 * process stops). Returns the release (tests, shutdown).
 */
export async function lockPostgres(connectionString: string, reason = EMBEDDED_SERVER_REASON, opts: PostgresLockOptions = {}): Promise<() => Promise<void>> {
  const onTaken = opts.onTaken ?? stopServing;
  let released = false;
  const within = opts.answerWithinMs ?? ANSWER_WITHIN_MS;
  // Every session of this lock carries one name, new to this call: no session holds it yet.
  const sessionName = newSessionName();
  // A wait in line must end before the connection's own query timeout would cut it.
  const session: LockSession = { name: sessionName, connectionString, waitMs: Math.min(opts.ownSessionWaitMs ?? OWN_SESSION_WAIT_MS, within / 2), answerWithinMs: within };
  const first = lockConnection(connectionString, sessionName, within);
  let held: { client: pg.Client; pid: number };
  try {
    await connectAs(first, sessionName);
    const pid = await tryAdvisoryLock(first, reason, session, null);
    if (pid === null) throw new Error(`a session named ${sessionName} held the lock before it was asked for`);
    held = { client: first, pid };
  } catch (err) {
    await first.end().catch(() => undefined);
    throw err;
  }
  let retaking: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => (clearTimeout(timer), resolve());
    });

  // The retake's connection, so a release can end a wait in line at once.
  let retakeClient: pg.Client | null = null;
  /** Lock connections that have ended: one that ends before it is watched is still acted on as the retake finishes. */
  const endedClients = new WeakSet<pg.Client>();
  const retake = async (old: pg.Client) => {
    console.error("[store] the one-process lock's connection was lost; taking the lock again");
    // Its session may still be alive: the retake ends it, which is no failure worth a log line.
    old.removeAllListeners("error").on("error", () => undefined);
    let client: pg.Client | null = null;
    const ender = enderFor(session);
    let lastFailure = "";
    try {
      while (!released) {
        try {
          if (!client) {
            const fresh = (client = lockConnection(connectionString, sessionName, within));
            fresh.once("end", () => endedClients.add(fresh));
            await connectAs(client, sessionName);
            // Only a connected client may be ended by a release (ending one mid-connect leaves its connect pending for good).
            if (released) break;
            retakeClient = client;
          }
          const pid = await tryAdvisoryLock(client, reason, session, ender);
          if (released) break;
          if (pid !== null) {
            held = { client, pid };
            retakeClient = null;
            client = null;
            watch(held.client);
            // Left on the held connection, it would bound nothing (the checks take no lock); a failure is the checks' to find.
            await held.client.query("RESET lock_timeout").catch(() => undefined);
            if (!released) console.error("[store] the one-process lock is held again");
            return;
          }
          // Our old session has not gone yet: read the holders again and wait in line again.
        } catch (err) {
          if (released) break;
          if (err instanceof DatabaseInUseError) {
            // Serving stops here (by default the process exits): no more checks or retakes.
            released = true;
            clearInterval(checker);
            return onTaken(err);
          }
          // Postgres not reachable yet, or a connection failed: said once per new reason, then a new one, a moment later.
          const why = (err as Error).message;
          if (why !== lastFailure) console.error("[store] taking the one-process lock again failed, retrying each second:", why);
          lastFailure = why;
          const failed = client;
          client = null;
          retakeClient = null;
          if (failed) await closeNow(failed);
          await ender.end();
          if (!released) await pause(RETAKE_EVERY_MS);
        }
      }
    } finally {
      // Not awaited: the retake is over, and what happens to the new held connection from here
      // on must reach lost() and the checks at once, not after these closes.
      void ender.end();
      if (client) void closeNow(client);
      retakeClient = null;
      // The lost connection, left open until now: ended before the lock passed on, a live old
      // session (a check that only came late) would have freed the lock with nobody in line.
      void closeNow(old);
    }
  };
  const lost = (c: pg.Client) => {
    if (released || retaking || c !== held.client) return;
    retaking = retake(c).finally(() => {
      retaking = null;
      if (endedClients.has(held.client)) lost(held.client);
    });
  };
  const watch = (c: pg.Client) =>
    c.once("end", () => {
      endedClients.add(c);
      lost(c);
    });
  watch(held.client);
  const checker = setInterval(() => {
    const c = held.client;
    if (!released && !retaking) c.query("SELECT 1").catch(() => lost(c));
  }, opts.checkEveryMs ?? CHECK_EVERY_MS);
  checker.unref?.();

  return async () => {
    released = true;
    clearInterval(checker);
    wake?.();
    if (retaking && retakeClient) await closeNow(retakeClient);
    await retaking;
    await closeNow(held.client);
  };
}
