import { AsyncLocalStorage } from "node:async_hooks";
import type Database from "better-sqlite3";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointListOptions, CheckpointMetadata, CheckpointTuple, PendingWrite } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";

/**
 * Why a gate: the registry (Kysely) and the SqliteSaver share ONE better-sqlite3 connection, so
 * they share one transaction. Kysely's transactions span awaits; in between, another run's
 * checkpoint write (the saver's statements are synchronous, but each call awaits serialisation
 * first) would run on the same connection INSIDE our open transaction: a rollback of ours would
 * silently take that checkpoint with it, and even a commit would make it part of a unit it does
 * not belong to. So the connection is a readers/writer gate: every saver call holds it shared
 * for its whole duration (any number at once), and a registry transaction holds it exclusive
 * (FIFO, so neither side starves). Kysely's own single-connection mutex already keeps plain
 * registry statements out of a transaction; the gate adds the saver. Saver calls made from inside
 * the transaction itself (none today) pass straight through instead of deadlocking.
 */
type Waiter = { exclusive: boolean; go: () => void };
type Hold = { open: boolean };

export class ConnectionGate {
  private shared = 0;
  private held = false;
  private readonly queue: Waiter[] = [];
  private readonly context = new AsyncLocalStorage<Hold>();

  private free(exclusive: boolean) {
    return !this.held && (!exclusive || this.shared === 0);
  }

  private take(exclusive: boolean) {
    if (exclusive) this.held = true;
    else this.shared++;
  }

  private acquire(exclusive: boolean): Promise<void> | void {
    if (!this.queue.length && this.free(exclusive)) return this.take(exclusive);
    return new Promise<void>((go) => this.queue.push({ exclusive, go }));
  }

  private release(exclusive: boolean) {
    if (exclusive) this.held = false;
    else this.shared--;
    while (this.queue.length && this.free(this.queue[0].exclusive)) {
      const next = this.queue.shift()!;
      this.take(next.exclusive);
      next.go();
      if (next.exclusive) break;
    }
  }

  private inOwnHold = () => this.context.getStore()?.open === true;

  /** A saver call: any number at once, never while a registry transaction is open. */
  async withShared<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inOwnHold()) return fn();
    await this.acquire(false);
    try {
      return await fn();
    } finally {
      this.release(false);
    }
  }

  /** A registry transaction: alone on the connection. */
  async withExclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.inOwnHold()) return fn();
    await this.acquire(true);
    const hold: Hold = { open: true };
    try {
      return await this.context.run(hold, fn);
    } finally {
      hold.open = false;
      this.release(true);
    }
  }
}

const gates = new WeakMap<Database.Database, ConnectionGate>();

/** The one gate of a connection (the saver and the registry find it through the connection). */
export function connectionGate(db: Database.Database): ConnectionGate {
  let gate = gates.get(db);
  if (!gate) gates.set(db, (gate = new ConnectionGate()));
  return gate;
}

/** The SqliteSaver with every call behind its connection's gate (see above). */
export class GatedSqliteSaver extends SqliteSaver {
  private readonly gate: ConnectionGate;

  constructor(db: Database.Database) {
    super(db);
    this.gate = connectionGate(db);
  }

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.gate.withShared(() => super.getTuple(config));
  }

  /** Read whole under the gate, then handed out: a slow consumer must not hold the connection. */
  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const all = await this.gate.withShared(async () => {
      const out: CheckpointTuple[] = [];
      for await (const t of super.list(config, options)) out.push(t);
      return out;
    });
    yield* all;
  }

  put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    return this.gate.withShared(() => super.put(config, checkpoint, metadata));
  }

  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    return this.gate.withShared(() => super.putWrites(config, writes, taskId));
  }

  deleteThread(threadId: string): Promise<void> {
    return this.gate.withShared(() => super.deleteThread(threadId));
  }
}
