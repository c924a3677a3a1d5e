import { StreamedAnswer } from "./partial-answer";
import type { RunCreate, StreamMode } from "./schemas";
import type { RunStatus } from "./queries";
import type { RunEvent } from "./sse";

export type CancelAction = "interrupt" | "rollback";
type Listener = (event: RunEvent | null) => void;

/**
 * One run in memory: its event buffer (for join / Last-Event-ID replay) and its subscribers.
 * Every event is serialised once and fanned out to all subscribers; `null` tells them it ended.
 */
export class LiveRun {
  readonly events: RunEvent[] = [];
  private readonly listeners = new Set<Listener>();
  readonly abort = new AbortController();
  status: RunStatus = "pending";
  cancelAction: CancelAction | null = null;
  error: { error: string; message: string } | null = null;
  /** Latest checkpoint when the run started; rollback drops everything after it. */
  startCheckpointId: string | null = null;
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
  ) {}

  get finished() {
    return this.finishedAt != null;
  }

  emit(event: string, data: unknown) {
    const e: RunEvent = { id: this.events.length, event, data: typeof data === "string" ? data : JSON.stringify(data ?? null) };
    this.events.push(e);
    for (const l of this.listeners) l(e);
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
    for (const l of this.listeners) l(null);
    this.listeners.clear();
    this.resolveDone();
  }
}
