import type { LiveRun } from "./live-run";
import { HEARTBEAT, encodeEvent, sseHeaders, type RunEvent } from "./sse";

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

/**
 * An SSE response following one run: buffered events first, then live ones, heartbeats in
 * between. A client leaving only unsubscribes; the run goes on unless onDisconnect says otherwise.
 */
export function runStreamResponse(run: LiveRun, opts: RunStreamOptions): Response {
  const path = runPath(run.threadId, run.runId);
  const filter = wanted(opts.modes);
  let closed = false;
  let unsubscribe = () => {};
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = (clientLeft: boolean) => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(timer);
    if (clientLeft && !run.finished) opts.onDisconnect?.();
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (opts.signal?.aborted) return stop(true);
      opts.signal?.addEventListener("abort", () => stop(true), { once: true });
      timer = setInterval(() => {
        if (!closed) controller.enqueue(HEARTBEAT);
      }, HEARTBEAT_MS);
      timer.unref?.();
      unsubscribe = run.subscribe(opts.afterId, (e) => {
        if (closed) return;
        if (e === null) {
          stop(false);
          controller.close();
        } else if (filter(e)) controller.enqueue(encodeEvent(e));
      });
    },
    cancel() {
      stop(true);
    },
  });
  const headers: Record<string, string> = { "Content-Location": path };
  if (opts.resumable) headers.Location = `${path}/stream`;
  return new Response(body, { status: 200, headers: sseHeaders(headers) });
}
