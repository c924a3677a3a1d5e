import type { TitleAttempt } from "./title-model";
import { TITLE_FAILURE_PREFIX } from "./title-model";

/** How long a finished call nobody collected (its run failed before the end) is kept. */
const UNCLAIMED_MS = 60_000;
/** Extra wait past the request's own deadline before giving up on a model that ignores abort. */
const GRACE_MS = 1_000;

interface Call {
  promise: Promise<TitleAttempt>;
  abort: AbortController;
}

/**
 * Title calls started in one graph node (beforeAgent/afterModel) and collected in another
 * (afterAgent), one per thread. Lives in the middleware's closure: a call is a promise, not state.
 */
export class PendingTitleCalls {
  private readonly calls = new Map<string, Call>();

  has(key: string): boolean {
    return this.calls.has(key);
  }

  start(key: string, request: (signal: AbortSignal) => Promise<TitleAttempt>, runSignal?: AbortSignal) {
    this.calls.get(key)?.abort.abort(new Error("superseded by a newer title call"));
    const abort = new AbortController();
    const onRunAbort = () => abort.abort(runSignal?.reason);
    runSignal?.addEventListener("abort", onRunAbort, { once: true });
    const promise = request(abort.signal).catch((err): TitleAttempt => ({ ok: false, reason: String(err) }));
    const call = { promise, abort };
    this.calls.set(key, call);
    void promise.then(() => {
      runSignal?.removeEventListener("abort", onRunAbort);
      setTimeout(() => this.calls.get(key) === call && this.calls.delete(key), UNCLAIMED_MS).unref?.();
    });
  }

  /** The call's result, waiting at most `timeoutMs` (+ grace); null when there is none. */
  async take(key: string, timeoutMs: number, warn: (line: string) => void = console.warn): Promise<TitleAttempt | null> {
    const call = this.calls.get(key);
    if (!call) return null;
    this.calls.delete(key);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs + GRACE_MS);
    });
    const result = await Promise.race([call.promise, late]);
    clearTimeout(timer);
    if (result) return result;
    call.abort.abort(new Error("title call outlived its deadline"));
    warn(`${TITLE_FAILURE_PREFIX} no answer within ${timeoutMs} ms (the model ignored the deadline)`);
    return null;
  }
}
