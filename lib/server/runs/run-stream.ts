import { isTokenEvent, type LiveRun } from "./live-run";
import { HEARTBEAT, encodeEvent, sseHeaders, type RunEvent } from "../http/sse";

const HEARTBEAT_MS = 10_000;

export interface RunStreamOptions {
  /** Replay events with a larger id (from Last-Event-ID); -1 = from the start. */
  afterId: number;
  /** Client stream modes for a join; undefined = everything the run produces. */
  modes?: string[];
  signal?: AbortSignal;
  /** Called once if the client goes away before the run ends (on_disconnect / cancel_on_disconnect). */
  onDisconnect?: () => void;
  resumable: boolean;
}

/** A run's path below the API root, as the SDK reads it from Content-Location / Location. */
export const runPath = (threadId: string, runId: string) => `/threads/${encodeURIComponent(threadId)}/runs/${encodeURIComponent(runId)}`;

const ALWAYS = new Set(["metadata", "error", "end"]);

function wanted(modes: string[] | undefined) {
  if (!modes?.length) return () => true;
  const set = new Set(modes.map((m) => (m === "messages-tuple" ? "messages" : m)));
  return (e: RunEvent) => {
    const base = e.event.split("|")[0];
    return ALWAYS.has(base) || set.has(base);
  };
}


/** Each event is encoded once, however many subscribers it goes to. */
const encoded = new WeakMap<RunEvent, Uint8Array>();
function bytesOf(e: RunEvent): Uint8Array {
  let b = encoded.get(e);
  if (!b) encoded.set(e, (b = encodeEvent(e)));
  return b;
}

interface Queued {
  bytes: Uint8Array;
  /** Token events and heartbeats; anything else (values, metadata, error…) goes out alone. */
  mergeable: boolean;
}

/**
 * The next chunk to hand the response: a run of token events (and heartbeats) that piled up
 * while the client was reading, as one write, or one other event on its own. A `values` event
 * never shares a chunk: the web app must see the fallback title and the model's title in
 * separate reads (e2e/13-model-title.spec.ts).
 */
export function takeChunk(queue: Queued[]): Uint8Array {
  if (!queue[0].mergeable) return queue.shift()!.bytes;
  let n = 1;
  let size = queue[0].bytes.length;
  while (n < queue.length && queue[n].mergeable) size += queue[n++].bytes.length;
  if (n === 1) return queue.shift()!.bytes;
  const out = new Uint8Array(size);
  let at = 0;
  for (const q of queue.splice(0, n)) {
    out.set(q.bytes, at);
    at += q.bytes.length;
  }
  return out;
}

/** Events one subscriber may have waiting beyond what its socket accepts before it is cut off. */
export const MAX_QUEUED_EVENTS = 10_000;

/**
 * An SSE response following one run: buffered events first, then live ones, heartbeats in
 * between. A client leaving only unsubscribes; the run goes on unless onDisconnect says otherwise.
 *
 * Backpressure: events are handed to the response only as fast as the client reads them (a
 * pull-based stream). Until then they wait in this subscriber's queue; a client so slow that
 * `maxQueued` events pile up is cut off (the run goes on) and can rejoin with Last-Event-ID.
 * Token events that piled up meanwhile go out as one chunk (one socket write, not one each).
 */
export function runStreamResponse(run: LiveRun, opts: RunStreamOptions & { maxQueued?: number }): Response {
  const path = runPath(run.threadId, run.runId);
  const filter = wanted(opts.modes);
  const maxQueued = opts.maxQueued ?? MAX_QUEUED_EVENTS;
  const queue: Queued[] = [];
  let ended = false;
  let closed = false;
  let wake: (() => void) | null = null;
  let unsubscribe = () => {};
  let timer: ReturnType<typeof setInterval> | undefined;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const stop = (clientLeft: boolean) => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(timer);
    poke();
    if (clientLeft && !run.finished) opts.onDisconnect?.();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start() {
        if (opts.signal?.aborted) return stop(true);
        opts.signal?.addEventListener("abort", () => stop(true), { once: true });
        timer = setInterval(() => {
          // A heartbeat only when nothing else is waiting: it must not grow a slow client's queue.
          if (!closed && !queue.length) {
            queue.push({ bytes: HEARTBEAT, mergeable: true });
            poke();
          }
        }, HEARTBEAT_MS);
        timer.unref?.();
        unsubscribe = run.subscribe(opts.afterId, (e) => {
          if (closed) return;
          if (e === null) ended = true;
          else if (filter(e)) queue.push({ bytes: bytesOf(e), mergeable: isTokenEvent(e.event) });
          if (queue.length > maxQueued) {
            queue.length = 0;
            ended = true;
            stop(false);
          }
          poke();
        });
      },
      async pull(controller) {
        while (!queue.length && !ended && !closed) await new Promise<void>((r) => (wake = r));
        if (queue.length) controller.enqueue(takeChunk(queue));
        else {
          stop(false);
          controller.close();
        }
      },
      cancel() {
        stop(true);
      },
    },
    { highWaterMark: 1 },
  );
  const headers: Record<string, string> = { "Content-Location": path };
  if (opts.resumable) headers.Location = `${path}/stream`;
  return new Response(body, { status: 200, headers: sseHeaders(headers) });
}
