"use client";
import { useCallback, useEffect, useRef } from "react";
import { OUTSIDE_WRITE_NODE, stoppedAnswerToKeep, type StreamedAnswer } from "@/lib/chat/stopped-answer";
import { usesStandardApi } from "./api-flavor";
import { getBrowserClient } from "./sdk-client";
import { runRegistry } from "./run-registry";
import { inputMessageIds, isUnfinishedRun } from "./unsent";

type Mutate<S> = (update: Partial<S>) => void;
type RunRef = { threadId: string; runId: string };

/** How long Stop waits for a run that is being created to get its id. */
const RUN_ID_WAIT_MS = 5_000;

/**
 * Stop that keeps what was written. The server keeps the streamed text as a "stopped" answer,
 * but only once the run has really ended: so the run is cancelled and awaited first, and only
 * then is the stream stopped and the thread's state read back (useStream's own stop reads the
 * state at once, before the server wrote the partial answer, which made the text vanish).
 * A Stop pressed before the run has an id waits for it: cutting the stream first would leave a
 * run nobody cancels (runs continue when their client leaves).
 * Returns useStream's `onStop` option, `noteRun` (call it with every run this view starts or
 * joins) and the Stop handler (given useStream's `stop`, the id of the message this view sent
 * last, if any, and a getter of the answer on screen, read once the run has ended), which
 * resolves to the thread's values as read back after the stop (null when they could not be read).
 * In front of a LangGraph server, which keeps nothing of a cut-off answer, the answer on screen
 * is written into the thread from here, marked stopped as Threadline's own server marks it.
 * With no run id in time (the request stalled, or its answer did), the thread's runs are read: a
 * run the server made for that message but this page never heard of is cancelled too, so Stop
 * never leaves it to answer later.
 */
export function useStopKeepingText<S extends Record<string, unknown>>(threadId: string | null) {
  const mutateRef = useRef<Mutate<S> | null>(null);
  const waiters = useRef<((run: RunRef) => void)[]>([]);
  // The thread made while Stop waited (new-conversation page) is the one to read back.
  const currentThread = useRef(threadId);
  useEffect(() => {
    currentThread.current = threadId;
  }, [threadId]);
  const onStop = useCallback(({ mutate }: { mutate: Mutate<S> }) => {
    mutateRef.current = mutate;
  }, []);
  const noteRun = useCallback((run: RunRef) => {
    for (const w of waiters.current.splice(0)) w(run);
  }, []);

  const stop = useCallback(
    async (stopStream: () => Promise<void>, sentMessageId?: string, streamedNow?: () => StreamedAnswer | null): Promise<S | null> => {
      const client = getBrowserClient();
      const stored = threadId ? runRegistry.getItem(`lg:stream:${threadId}`) : null;
      const run =
        threadId && stored
          ? { threadId, runId: stored }
          : await new Promise<RunRef | null>((resolve) => {
              waiters.current.push(resolve);
              setTimeout(() => resolve(null), RUN_ID_WAIT_MS);
            });
      if (run) await client.runs.cancel(run.threadId, run.runId, true).catch(() => undefined);
      // Read once the run has ended: the tokens that came while the cancel was under way count too.
      const streamed = streamedNow?.() ?? null;
      await stopStream();
      const id = run?.threadId ?? currentThread.current;
      if (!id) return null;
      if (!run && sentMessageId) await cancelRunsOf(id, sentMessageId);
      let state = await client.threads.getState<S>(id).catch(() => null);
      if (!state?.values) return null;
      // A LangGraph server keeps nothing of a cut-off answer: the text the reader saw is written back here.
      const messages = (state.values as { messages?: unknown[] }).messages ?? [];
      const keep = usesStandardApi() ? stoppedAnswerToKeep(messages, streamed) : null;
      if (keep) {
        const kept = await client.threads
          .updateState(id, { values: { messages: [keep] }, asNode: OUTSIDE_WRITE_NODE })
          .then(() => client.threads.getState<S>(id).catch(() => null))
          .catch((err: unknown) => {
            // Refused (the thread busy again: another tab sent at once) or unreachable: the text
            // stays on this screen, not kept by the server; a reload will not show it.
            console.warn("[stop] the stopped answer could not be kept on the LangGraph server", err);
            return null;
          });
        state = kept?.values ? kept : { ...state, values: { ...state.values, messages: [...messages, keep] } as S };
      }
      mutateRef.current?.(state.values as Partial<S>);
      return state.values as S;
    },
    [threadId],
  );
  return { stop, onStop, noteRun };
}

/** Cancels the thread's pending or running runs whose input holds message `messageId`. */
async function cancelRunsOf(threadId: string, messageId: string): Promise<void> {
  const client = getBrowserClient();
  const runs = await client.runs.list(threadId, { limit: 20 }).catch(() => []);
  const carrying = runs.filter((r) => isUnfinishedRun(r) && inputMessageIds([r]).includes(messageId));
  await Promise.all(carrying.map((r) => client.runs.cancel(threadId, r.run_id, true).catch(() => undefined)));
}
