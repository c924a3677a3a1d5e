import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { nowIso } from "../store/clock";
import { conflict, notFound } from "../http/errors";
import { DEFAULT_TITLE_CONFIG, decideTitle, sameTitleFact, titleFactOf, type TitleConfig, type TitleSource } from "@/lib/title";
import { branchTitleToCarry, checkpointExists, threadConfig, writeTitleToCheckpoint, type AgentGraph } from "../graph";
import { watchCheckpointWrites, type CheckpointWrites } from "./checkpoint-writes";
import { titleInterruptedThread } from "./interrupted-title";
import { LiveRun, type CancelAction } from "./live-run";
import type { Queries, RunStatus, ThreadHead } from "../store/queries";
import { syncedFactOf, type Registry } from "../store/registry";
import { keepPartialAnswer } from "./partial-answer";
import { executeRun } from "./run-exec";
import { DEFAULT_RUN_LIMITS, type RunLimits } from "./run-limits";
import { RunSlots } from "./run-slots";
import { RunAdmission } from "./run-admission";
import { checkpointOf, type RunCreate, type StreamMode } from "../http/schemas";

const USER: TitleSource = { kind: "user" };
const SETTLE_ATTEMPTS = 10;

interface Lane {
  active: LiveRun | null;
  pending: LiveRun[];
  /** A short state write (rename, regenerate, state update) holding the thread; runs wait for it. */
  exclusive: Promise<unknown> | null;
  deleting: boolean;
  /** Queued runs cancelled before they started: their messages are written, in order, before the next run. */
  owed: LiveRun[];
}

export interface RunManagerDeps {
  graph: AgentGraph;
  registry: Registry;
  q: Queries;
  checkpointer: BaseCheckpointSaver;
  titleConfig?: TitleConfig;
  limits?: Partial<RunLimits>;
  /** Resolves once what was committed is on disk (SQLite group commit); default: at once. */
  durable?: () => Promise<void>;
}

/**
 * In-process runs: one lane (queue) per thread, an event buffer per run, fan-out to every
 * subscriber. Runs never depend on a client being connected (on_disconnect "continue" is the
 * default); run rows and thread status are written through to SQLite for restart repair.
 */
export class RunManager {
  private readonly lanes = new Map<string, Lane>();
  private readonly runs = new Map<string, LiveRun>();
  readonly limits: RunLimits;
  private readonly slots: RunSlots;
  private readonly admission: RunAdmission;
  private readonly pruneTimer: ReturnType<typeof setInterval>;
  /** Resolves once an aborted run's background checkpoint writes have landed. */
  private readonly writes: CheckpointWrites;

  constructor(private readonly d: RunManagerDeps) {
    this.limits = { ...DEFAULT_RUN_LIMITS, ...d.limits };
    this.slots = new RunSlots(this.limits.maxConcurrentRuns);
    this.admission = new RunAdmission(this.limits.admitPerTurn);
    this.writes = watchCheckpointWrites(d.checkpointer);
    // Memory stays bounded on a quiet server too, not only when the next run starts.
    this.pruneTimer = setInterval(() => this.prune(), this.limits.pruneIntervalMs);
    this.pruneTimer.unref?.();
  }

  /** Runs in memory (live and finished-but-retained) and thread lanes, for tests and health checks. */
  get sizes() {
    return { runs: this.runs.size, lanes: this.lanes.size, executing: this.slots.executing, waiting: this.slots.waiting, admitting: this.admission.waiting };
  }

  private lane(threadId: string): Lane {
    let lane = this.lanes.get(threadId);
    if (!lane) this.lanes.set(threadId, (lane = { active: null, pending: [], exclusive: null, deleting: false, owed: [] }));
    return lane;
  }

  isBusy(threadId: string): boolean {
    const lane = this.lanes.get(threadId);
    return Boolean(lane && (lane.active || lane.pending.length));
  }

  get(runId: string): LiveRun | undefined {
    return this.runs.get(runId);
  }

  /** `newThread`: metadata for the thread `if_not_exists: "create"` makes, beside the graph's keys (its owner). */
  async create(threadId: string, body: RunCreate, newThread?: Record<string, unknown>): Promise<LiveRun> {
    const { registry, checkpointer } = this.d;
    if (body.assistant_id !== "agent") throw notFound(`Assistant ${body.assistant_id}`);
    const checkpoint = checkpointOf(body);
    const missingCheckpoint = () => notFound(`Checkpoint ${checkpoint!.checkpoint_id} of thread ${threadId}`);
    if (!(await registry.find(threadId))) {
      if (body.if_not_exists !== "create") throw notFound(`Thread ${threadId}`);
      // A thread made now has no checkpoint: a run from one is refused before anything is made.
      if (checkpoint?.checkpoint_id) throw missingCheckpoint();
      await registry.create({ threadId, metadata: { graph_id: "agent", assistant_id: "agent", ...newThread }, ifExists: "do_nothing" });
      // Made by someone else in between (do_nothing kept theirs): not this caller's thread.
      const made = await registry.find(threadId);
      const metadata = made ? (JSON.parse(made.metadata) as Record<string, unknown>) : {};
      if (!made || Object.entries(newThread ?? {}).some(([k, v]) => metadata[k] !== v)) throw notFound(`Thread ${threadId}`);
    }
    if (!(await checkpointExists(checkpointer, threadId, checkpoint))) throw missingCheckpoint();
    const exists = await registry.find(threadId);
    // From here on no await until the run holds its place in the lane: the busy check and the
    // reservation are atomic. The run starts only once its row is stored (`stored`).
    const lane = this.lane(threadId);
    if (lane.deleting || !exists) throw notFound(`Thread ${threadId}`);
    const strategy = body.multitask_strategy ?? "reject";
    const busy = [lane.active, ...lane.pending].filter((r): r is LiveRun => r != null && !r.cancelAction);
    if (busy.length && strategy === "reject") {
      throw conflict(`Thread ${threadId} is busy with run ${busy[0].runId}; use multitask_strategy "enqueue", "interrupt" or "rollback"`);
    }
    if (strategy === "interrupt" || strategy === "rollback") for (const r of busy) this.requestCancel(r, strategy);

    const modes = ([] as StreamMode[]).concat(body.stream_mode ?? "values");
    const run = new LiveRun(randomUUID(), threadId, body, [...new Set(modes)], this.limits.maxReplayEvents, this.limits.fullReplayMs);
    const at = nowIso();
    this.runs.set(run.runId, run);
    lane.pending.push(run);
    // The run row and the thread's busy status land together or not at all.
    try {
      await this.d.q.transaction(async () => {
        await this.d.q.insertRun({
        run_id: run.runId,
        thread_id: threadId,
        assistant_id: body.assistant_id,
        status: "pending",
        created_at: at,
        metadata: JSON.stringify(body.metadata ?? {}),
        kwargs: JSON.stringify({ input: body.input ?? null, command: body.command ?? null, config: body.config ?? {}, context: body.context ?? {}, stream_mode: run.modes, checkpoint: checkpoint ?? null }),
        multitask_strategy: strategy,
        });
        await registry.ensureMetadata(threadId, { graph_id: "agent", assistant_id: "agent" });
        await registry.setStatus(threadId, "busy", true);
      });
    } catch (err) {
      this.runs.delete(run.runId);
      lane.pending.splice(lane.pending.indexOf(run), 1);
      run.finish();
      this.pump(lane);
      this.dropIfIdle(threadId, lane);
      throw err;
    }
    // The run row (holding the user's message) is on disk before the run starts and is announced.
    await this.d.durable?.();
    run.stored = true;
    run.emit("metadata", { run_id: run.runId, thread_id: threadId, attempt: 1 });
    // Cancelled while its row was being stored (a delete, or a run with "interrupt"): ends now.
    if (run.cancelAction) {
      const action = run.cancelAction;
      run.cancelAction = null;
      this.requestCancel(run, action);
    }
    this.pump(lane);
    return run;
  }

  /** Marks a run cancelled. A pending run ends now; a running one is aborted and ends in `runActive`. */
  requestCancel(run: LiveRun, action: CancelAction) {
    if (run.finished || run.cancelAction) return;
    run.cancelAction = action;
    if (!run.stored) return; // create() ends it once its row is stored
    const lane = this.lane(run.threadId);
    const i = lane.pending.indexOf(run);
    if (i >= 0) {
      lane.pending.splice(i, 1);
      run.status = "interrupted";
      // Its message is the user's: written in its place in the queue. Not for a rollback (it erases
      // the run), nor for a run from an earlier checkpoint (an edit: its message is not the head's).
      const owed = action !== "rollback" && !lane.deleting && run.body.input != null && !checkpointOf(run.body)?.checkpoint_id;
      if (owed) lane.owed.push(run);
      const idle = !lane.active && !lane.pending.length;
      // It ends once its row says so (a cancel with wait=1 then reads `interrupted`, on Postgres too).
      const ended = this.persistRunEnd(run, owed);
      // writeOwed clears the mark only after this write (on Postgres the two could land out of order).
      if (owed) run.endStored = ended;
      void ended
        .then(() => (owed ? this.pump(lane) : idle ? this.d.registry.setStatus(run.threadId, "idle", true) : undefined))
        .catch((err) => console.error("[runs] could not store a cancelled run's end", err))
        .finally(() => run.finish());
      this.dropIfIdle(run.threadId, lane);
      return;
    }
    run.abort.abort(new Error("Run cancelled"));
  }

  async cancel(threadId: string, runId: string, action: CancelAction, wait: boolean) {
    const live = this.runs.get(runId);
    if (!live || live.threadId !== threadId) {
      if (!(await this.d.q.getRun(threadId, runId))) throw notFound(`Run ${runId}`);
      return; // already over (or from before a restart): cancelling is a no-op
    }
    this.requestCancel(live, action);
    if (wait) await live.done;
  }

  /**
   * Runs `fn` while holding the thread, unless a run is active or queued: then `onBusy` is
   * called in the same tick as the check, and the run's settle waits for what it writes (a
   * pending pin) before it lets the thread go, so such a write is never left unsettled.
   */
  async exclusive<T>(threadId: string, fn: () => Promise<T>, onBusy: () => T | Promise<T>): Promise<T> {
    // Re-read the lane after every wait: an idle lane may have been pruned and replaced meanwhile.
    let lane = this.lane(threadId);
    while (lane.exclusive) {
      await lane.exclusive.catch(() => undefined);
      lane = this.lane(threadId);
    }
    if (lane.active || lane.pending.length) return this.trackBusyWrite(threadId, onBusy);
    // The write goes checkpoint first, registry second: the mark lets restart repair re-sync
    // the registry if the process dies in between.
    const p = (async () => {
      await this.d.registry.markSyncPending(threadId);
      let failed = false;
      try {
        return await fn();
      } catch (err) {
        failed = true;
        throw err;
      } finally {
        await this.resync(threadId, failed);
      }
    })();
    lane.exclusive = p;
    try {
      return await p;
    } finally {
      lane.exclusive = null;
      this.pump(lane);
      this.dropIfIdle(threadId, lane);
    }
  }

  /** After an idle-thread write: clear the mark; if the write failed half-way, mirror the checkpoint first. */
  private async resync(threadId: string, failed: boolean) {
    try {
      if (failed) await this.d.registry.mirrorState(threadId, await this.d.graph.getState(threadConfig(threadId)));
      await this.d.registry.clearSyncPending(threadId);
    } catch (err) {
      console.error("[runs] registry may lag the checkpoint; restart repair will re-sync thread", threadId, err);
    }
  }

  /** Cancels every run of the thread, waits for them, and blocks new ones (thread deletion). */
  async drain(threadId: string) {
    const lane = this.lane(threadId);
    lane.deleting = true;
    const runs = [lane.active, ...lane.pending].filter((r): r is LiveRun => r != null);
    for (const r of runs) this.requestCancel(r, "interrupt");
    await Promise.all(runs.map((r) => r.done));
    while (lane.exclusive) await lane.exclusive.catch(() => undefined);
    return () => this.lanes.delete(threadId);
  }

  /** Cancels every unfinished run and waits for them (shutdown, tests). */
  async drainAll() {
    const open = [...this.runs.values()].filter((r) => !r.finished);
    for (const r of open) this.requestCancel(r, "interrupt");
    await Promise.all(open.map((r) => r.done));
    // The messages of queued runs cancelled here are written before the store closes.
    for (const lane of [...this.lanes.values()]) {
      while (!lane.deleting && (lane.exclusive || lane.owed.length)) await (lane.exclusive ?? new Promise((r) => setImmediate(r))).catch(() => undefined);
    }
  }

  /** Writes made by `onBusy` callers, per thread: settle waits for them before releasing the lane. */
  private readonly busyWrites = new Map<string, Set<Promise<unknown>>>();

  private trackBusyWrite<T>(threadId: string, onBusy: () => T | Promise<T>): Promise<T> {
    const p = (async () => onBusy())();
    let set = this.busyWrites.get(threadId);
    if (!set) this.busyWrites.set(threadId, (set = new Set()));
    const own = set;
    own.add(p);
    const done = () => {
      own.delete(p);
      if (!own.size && this.busyWrites.get(threadId) === own) this.busyWrites.delete(threadId);
    };
    p.then(done, done);
    return p;
  }

  private async busyWritesSettled(threadId: string) {
    for (let set = this.busyWrites.get(threadId); set?.size; set = this.busyWrites.get(threadId)) {
      await Promise.allSettled([...set]);
    }
  }

  private pump(lane: Lane) {
    if (lane.active || lane.exclusive || lane.deleting) return;
    if (lane.owed.length) return this.writeOwed(lane);
    if (!lane.pending.length || !lane.pending[0].stored) return;
    const run = lane.pending.shift()!;
    lane.active = run;
    // Its create() answers (and its `metadata` event goes out) before the run does any work.
    this.admission.admit(() => void this.runActive(lane, run));
  }

  private async runActive(lane: Lane, run: LiveRun) {
    const { q, graph, registry, checkpointer } = this.d;
    let slot = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await this.slots.acquire(run.abort.signal);
      slot = true;
      run.status = "running";
      await q.setRunStatus(run.runId, "running", null, nowIso());
      timer = setTimeout(() => {
        run.timedOut = true;
        run.abort.abort(new Error(`Run exceeded RUN_TIMEOUT_S (${this.limits.runTimeoutMs / 1000} s)`));
      }, this.limits.runTimeoutMs);
      timer.unref?.();
      const head = await checkpointer.getTuple(threadConfig(run.threadId));
      run.startCheckpointId = (head?.config.configurable?.checkpoint_id as string | undefined) ?? null;
      if (run.cancelAction) throw new Error("Run cancelled");
      // Checked at create, but a rollback of a run ahead in the queue may have erased it since:
      // the graph would then start from an empty state.
      const from = checkpointOf(run.body);
      if (from?.checkpoint_id && !(await checkpointExists(checkpointer, run.threadId, from))) {
        run.checkpointGone = true;
        throw new Error(`Checkpoint ${from.checkpoint_id} of thread ${run.threadId} no longer exists (a rollback erased it); the run did not start`);
      }
      await executeRun(graph, registry, run);
      if (run.timedOut) throw new Error("Run timed out");
      run.status = "success";
    } catch (err) {
      if (run.cancelAction) run.status = "interrupted";
      else {
        run.status = run.timedOut ? "timeout" : "error";
        const e = run.timedOut ? (run.abort.signal.reason as Error) : err instanceof Error ? err : new Error(String(err));
        run.error = { error: run.timedOut ? "TimeoutError" : e.name || "Error", message: e.message };
        // The stream and the run row tell the client; the operator reads it here.
        if (run.timedOut) console.warn(`[runs] run ${run.runId} (thread ${run.threadId}) timed out: ${e.message}`);
        else console.error(`[runs] run ${run.runId} (thread ${run.threadId}) failed:`, e);
        run.emit("error", run.error);
      }
    } finally {
      clearTimeout(timer);
      if (slot) this.slots.release();
    }
    // Bookkeeping below may fail (disk full, a bug); the run must still end for its waiters.
    try {
      // A rollback erases the run: none of its saves may land after the erase, however late.
      if (run.cancelAction === "rollback") this.writes.fence(run.runId);
      if (run.status !== "success") await this.writes.quiet(run.threadId);
      // Stop keeps what was written (rollback erases it; a thread being deleted needs nothing).
      if (run.cancelAction === "interrupt" && !lane.deleting) await keepPartialAnswer(graph, run.threadId, run.streamed);
      if (run.cancelAction === "rollback") await this.rollback(run);
      else await this.persistRunEnd(run);
      await this.afterRunEnded(run);
    } catch (err) {
      console.error("[runs] run end bookkeeping failed", run.runId, err);
    }
    // Write any pin owed to the checkpoint, mirror the final state, and release the lane in the
    // same tick as the last pin check, so a rename arriving now goes down the idle path.
    await this.settle(run.threadId, (row, paused) => {
      lane.active = null;
      // Busy still while a cancelled queued run's message waits to be written (writeOwed).
      const next = lane.pending.length || lane.owed.length ? "busy" : threadStatusAfter(run.status, row?.interrupts_json, paused);
      return registry.setStatus(run.threadId, next, true);
    });
    lane.active = null;
    run.finish();
    this.pump(lane);
    this.dropIfIdle(run.threadId, lane);
  }

  /**
   * Writes the messages of queued runs cancelled before they started (and titles the thread from
   * them if it has no title yet), holding the thread as a state write does, then lets the next run go.
   */
  private writeOwed(lane: Lane) {
    const owed = lane.owed.splice(0);
    const threadId = owed[0].threadId;
    lane.exclusive = (async () => {
      for (const run of owed) {
        await run.endStored;
        await this.afterRunEnded(run);
        // Written (or given up with an error logged): a restart must not write it again.
        await this.guarded("clearing an owed message's mark", threadId, () => this.d.q.clearRunInputOwed(run.runId));
      }
      await this.settle(threadId, (row) => this.d.registry.setStatus(threadId, lane.pending.length ? "busy" : threadStatusAfter("interrupted", row?.interrupts_json), true));
    })()
      .catch((err) => console.error("[runs] could not write a cancelled queued run's message", threadId, err))
      .finally(() => {
        lane.exclusive = null;
        this.pump(lane);
        this.dropIfIdle(threadId, lane);
      });
  }

  /**
   * The single place for "a run ended, before settle": steps that complete what the run left
   * behind. A step that keeps a cancelled run's partial answer belongs first, so the title repair
   * below reads the thread as it will stay. Each step is guarded: one failing skips only itself.
   */
  private async afterRunEnded(run: LiveRun) {
    if (run.status === "success" || run.cancelAction === "rollback") return; // rollback erased the run: nothing to title
    // Its message was for a branch that is gone: it does not belong at the thread's head. The
    // client got the error with the run and still holds it.
    if (run.checkpointGone) return;
    await this.guarded("interrupted-run title", run.threadId, () => this.titleInterrupted(run.threadId, run.body.input));
  }

  /** The interrupted-first-run title (also called by restart repair for runs a crash killed). */
  titleInterrupted(threadId: string, input: unknown) {
    const { graph, registry } = this.d;
    return titleInterruptedThread({ graph, registry, titleConfig: this.d.titleConfig ?? DEFAULT_TITLE_CONFIG }, threadId, input);
  }

  private async guarded(what: string, threadId: string, fn: () => Promise<unknown>) {
    try {
      await fn();
    } catch (err) {
      console.error(`[runs] ${what} failed for thread ${threadId}`, err);
    }
  }

  /** A rollback erases the run: its checkpoints and its row go in one transaction. */
  private async rollback(run: LiveRun) {
    try {
      await this.d.q.transaction(async () => {
        // Never started (cancelled while waiting for admission or a slot): nothing of it to erase but its row.
        if (run.startCheckpointId !== undefined) await this.d.q.dropCheckpointsAfter(run.threadId, run.startCheckpointId);
        await this.d.q.deleteRun(run.runId);
      });
    } catch (err) {
      console.error("[runs] rollback failed; the run is kept as interrupted", run.runId, err);
      await this.persistRunEnd({ runId: run.runId, status: run.status, error: run.error, cancelAction: "interrupt" });
    }
  }

  /** `inputOwed`: its message waits in `owed`; the row says so until it is written, for a restart. */
  private async persistRunEnd(run: Pick<LiveRun, "runId" | "status" | "error" | "cancelAction">, inputOwed = false) {
    try {
      if (run.cancelAction === "rollback") await this.d.q.deleteRun(run.runId);
      else await this.d.q.setRunStatus(run.runId, run.status, run.error?.message ?? null, nowIso(), inputOwed);
    } catch (err) {
      console.error("[runs] could not persist run end", err);
    }
  }

  /**
   * Brings the checkpoint and the registry back in step after a run (or at restart): writes a
   * pending pin into the checkpoint, then mirrors the state. Loops if a rename landed meanwhile.
   * `release` always runs, even when this gives up, and on success in the same tick as the last
   * pin check (so a rename arriving after it takes the idle path); a pin still owed stays flagged
   * (`pin_pending`) and the next start retries it.
   */
  async settle(threadId: string, release: (row: ThreadHead | undefined, paused: boolean) => unknown) {
    const { graph, registry } = this.d;
    let failure: unknown = null;
    let row: ThreadHead | undefined;
    // The graph stopped with steps still to run (interrupt_before/after): `next` is not empty.
    let paused = false;
    let released = false;
    const releaseOnce = async () => {
      if (released) return;
      released = true;
      try {
        await release(row, paused);
      } catch (err) {
        console.error("[runs] could not release thread", threadId, err);
      }
    };
    for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt++) {
      try {
        let snap = await graph.getState(threadConfig(threadId));
        const now = await registry.find(threadId);
        // A rename owed to the checkpoint; else the thread's title a branch left behind, unless an
        // idle-thread write was cut (sync_pending): then the checkpoint is the newer side (a
        // regenerate or an Undo that reached it) and is mirrored.
        const pin = now?.pin_pending ? { title: now.title ?? "", source: USER } : null;
        let carry: { title: string; source: TitleSource } | null = null;
        if (pin) carry = decideTitle(titleFactOf(snap.values), pin).accept ? pin : null;
        else if (!now?.sync_pending) carry = branchTitleToCarry(now && registry.titleOf(now), snap);
        if (carry) {
          await writeTitleToCheckpoint(graph, threadId, carry.title, carry.source);
          // Only that very title is settled: a newer rename keeps its flag.
          await registry.clearPendingPinIf(threadId, carry.title);
          snap = await graph.getState(threadConfig(threadId));
        } else if (now?.pin_pending) {
          // Nothing valid to write.
          await (now.title == null ? registry.clearPendingPin(threadId) : registry.clearPendingPinIf(threadId, now.title));
        }
        await registry.mirrorState(threadId, snap);
        paused = snap.next.length > 0;
        await this.busyWritesSettled(threadId);
        row = await registry.find(threadId);
      } catch (err) {
        failure = err;
        break;
      }
      // No await between this check and the release: a rename now either is seen here or finds the lane idle.
      if (!row?.pin_pending && !this.busyWrites.has(threadId)) return releaseOnce();
    }
    try {
      if (failure) {
        // The registry may now lag the checkpoint: the mark makes the next start re-sync it.
        await registry.markSyncPending(threadId);
        console.error(`[runs] thread ${threadId}: the list may lag the conversation's state; it is re-synced at the next start`, failure);
      }
      row = await registry.find(threadId);
      if (row?.pin_pending) {
        console.error(`[runs] thread ${threadId}: the checkpoint still owes a rename (pin_pending); it is retried at the next start`);
      }
    } catch (err) {
      console.error("[runs] could not record that thread", threadId, "needs a re-sync", err);
    } finally {
      await releaseOnce();
    }
  }

  /**
   * Restart's safety net for drift nothing marked (a write lost outside any known path): when the
   * registry's title differs from the checkpoint's, mirror the checkpoint. Skips busy threads, and
   * runs as an idle-thread write so it cannot interleave with a rename.
   */
  async resyncIfDrifted(threadId: string): Promise<boolean> {
    const { graph, registry } = this.d;
    const row = await registry.find(threadId);
    if (!row || row.pin_pending) return false;
    const snap = await graph.getState(threadConfig(threadId));
    if (sameTitleFact(registry.titleOf(row), titleFactOf(snap.values))) {
      // In step (only spelled differently, or mirrored before migration 2): say so, so the next
      // start's SQL comparison skips it. Spelled as the row has it: the same fact, so a true claim.
      await this.d.q.setSynced(threadId, syncedFactOf(snap, row));
      return false;
    }
    return this.exclusive(
      threadId,
      async () => {
        await registry.mirrorState(threadId, await graph.getState(threadConfig(threadId)));
        return true;
      },
      () => false,
    );
  }

  /** Sweeps finished runs past their retention and lanes with nothing in them. */
  prune() {
    const cutoff = Date.now() - this.limits.finishedRetentionMs;
    for (const [id, r] of this.runs) if (r.finishedAt != null && r.finishedAt <= cutoff) this.runs.delete(id);
    for (const [id, lane] of this.lanes) this.dropIfIdle(id, lane);
  }

  private dropIfIdle(threadId: string, lane: Lane) {
    const idle = !lane.active && !lane.pending.length && !lane.exclusive && !lane.deleting && !lane.owed.length;
    if (idle && this.lanes.get(threadId) === lane) this.lanes.delete(threadId);
  }

  /** Stops the sweep timer (shutdown, tests). */
  close() {
    clearInterval(this.pruneTimer);
  }
}

/**
 * A thread's status once its run ended: `interrupted` when the graph waits on an interrupt, or when
 * a run that ended normally left steps to run (`interrupt_before`/`interrupt_after`), as a
 * LangGraph server reports it. (A cancelled run's leftover step is not a pause the user asked for.)
 */
export function threadStatusAfter(status: RunStatus, interruptsJson: string | null | undefined, paused = false) {
  if (status === "error" || status === "timeout") return "error" as const;
  if (status === "success" && paused) return "interrupted" as const;
  return interruptsJson && interruptsJson !== "{}" ? ("interrupted" as const) : ("idle" as const);
}
