"use client";
import { useCallback, useRef } from "react";
import { getBrowserClient } from "./api-client";
import { runRegistry } from "./run-registry";

type Mutate<S> = (update: Partial<S>) => void;

/**
 * Stop that keeps what was written. The server keeps the streamed text as a "stopped" answer,
 * but only once the run has really ended: so the run is cancelled and awaited first, and only
 * then is the stream stopped and the thread's state read back (useStream's own stop reads the
 * state at once, before the server wrote the partial answer, which made the text vanish).
 * Returns the `onStop` option to give useStream and the Stop handler (given useStream's `stop`).
 */
export function useStopKeepingText<S extends Record<string, unknown>>(threadId: string | null) {
  const mutateRef = useRef<Mutate<S> | null>(null);
  const onStop = useCallback(({ mutate }: { mutate: Mutate<S> }) => {
    mutateRef.current = mutate;
  }, []);
  const stop = useCallback(async (stopStream: () => Promise<void>) => {
    const client = getBrowserClient();
    const runId = threadId ? runRegistry.getItem(`lg:stream:${threadId}`) : null;
    if (threadId && runId) await client.runs.cancel(threadId, runId, true).catch(() => undefined);
    await stopStream();
    if (!threadId) return;
    const state = await client.threads.getState<S>(threadId).catch(() => null);
    if (state?.values) mutateRef.current?.(state.values as Partial<S>);
  }, [threadId]);
  return { stop, onStop };
}
