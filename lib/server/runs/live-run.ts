import { StreamedAnswer } from "./partial-answer";
import type { RunCreate, StreamMode } from "../http/schemas";
import type { RunStatus } from "../store/queries";
import type { RunEvent } from "../http/sse";

export type CancelAction = "interrupt" | "rollback";
type Listener = (event: RunEvent | null) => void;

/**
 * Token events (`messages`, `messages|<ns>`): the only ones the replay buffer may drop, since
 * `values` snapshots carry their text, and the only ones run-stream.ts lets share an SSE chunk.
 */
export const isTokenEvent = (event: string) => event === "messages" || event.startsWith("messages|");

/**
 * One run in memory: its event buffer (for join / Last-Event-ID replay) and its subscribers.
 * Every event is serialised once and fanned out to all subscribers; `null` tells them it ended.
 * The buffer is bounded: past `maxReplayEvents`, token events still reach live subscribers but
 * are not kept for replay; `values`, `metadata`, `error` and the rest always are.
 */
export class LiveRun {
  readonly events: RunEvent[] = [];
  private nextId = 0;
  /** Token events live subscribers got but a replay will not (buffer full). */
  droppedFromReplay = 0;
  /** Events the finished run no longer keeps because its last `values` snapshot carries them (compact()). */
  compactedFromReplay = 0;
  private readonly listeners = new Set<Listener>();
  readonly abort = new AbortController();
  status: RunStatus = "pending";
  cancelAction: CancelAction | null = null;
  /** Its row and the thread's busy status are committed; until then it holds its place in the lane but does not start. */
  stored = false;
  timedOut = false;
  /** The checkpoint it was to start from was gone when its turn came (a rollback erased it): it never ran. */
  checkpointGone = false;
  /** Cancelled while queued, its message owed: the write of its row's end (input_owed set), awaited before the mark is cleared. */
  endStored: Promise<void> | null = null;
  error: { error: string; message: string } | null = null;
  /**
   * Latest checkpoint when the run started (null: the thread had none); rollback drops everything
   * after it. Undefined until the run starts: a run cancelled while waiting to start wrote nothing.
   */
  startCheckpointId: string | null | undefined = undefined;
  finishedAt: number | null = null;
  /** The answer being streamed, kept when the run is interrupted mid-answer. */
  readonly streamed = new StreamedAnswer();
  private resolveDone!: () => void;
  readonly done = new Promise<void>((r) => (this.resolveDone = r));

  constructor(
    readonly runId: string,
    readonly threadId: string,
    readonly body: RunCreate,
    readonly modes: StreamMode[],
    private readonly maxReplayEvents = Infinity,
    /** How long after its end a run keeps its whole stream for Last-Event-ID resumes before compact(). */
    private readonly fullReplayMs = Infinity,
  ) {}

  get finished() {
    return this.finishedAt != null;
  }

  get subscriberCount() {
    return this.listeners.size;
  }

  emit(event: string, data: unknown) {
    const e: RunEvent = { id: this.nextId++, event, data: typeof data === "string" ? data : JSON.stringify(data ?? null) };
    if (this.events.length < this.maxReplayEvents || !isTokenEvent(event)) this.events.push(e);
    else this.droppedFromReplay++;
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        // One broken subscriber must not stop the run or starve the others.
        this.listeners.delete(l);
        console.error("[runs] dropped a subscriber that threw", err);
      }
    }
  }

  /** Replays buffered events after `afterId`, then follows live ones. Returns an unsubscribe. */
  subscribe(afterId: number, listener: Listener): () => void {
    for (const e of this.events) if (e.id > afterId) listener(e);
    if (this.finished) {
      listener(null);
      return () => {};
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  finish() {
    if (this.finished) return;
    this.finishedAt = Date.now();
    for (const l of this.listeners) {
      try {
        l(null);
      } catch {
        // The run is over either way; waiters below must still be released.
      }
    }
    this.listeners.clear();
    this.resolveDone();
    if (Number.isFinite(this.fullReplayMs)) setTimeout(() => this.compact(), this.fullReplayMs).unref?.();
  }

  /**
   * A finished run stays joinable for minutes, but a client resuming mid-stream does so within
   * seconds of a drop; after that a join needs the run's outcome, not its every token. Drops the
   * token events and the earlier snapshots that the last top-level `values` event supersedes
   * (it holds the whole answer), keeping ids, so Last-Event-ID still filters correctly, and
   * everything else (metadata, updates, custom, error). Without it each run kept tens of kB for
   * the whole retention window (bench/scripts/growth.mjs).
   */
  compact() {
    const last = this.events.findLastIndex((e) => e.event === "values");
    if (last <= 0) return;
    const kept = this.events.filter((e, i) => i >= last || !(e.event === "values" || isTokenEvent(e.event)));
    this.compactedFromReplay += this.events.length - kept.length;
    this.events.length = 0;
    this.events.push(...kept);
  }
}
