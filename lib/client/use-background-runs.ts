"use client";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { toast } from "sonner";
import { loadBrowserClient } from "./api-client";
import { errorTextForPeople } from "./error-text";
import { recordRunActivity, recordStreamTitle } from "./live-titles";
import { runRegistry } from "./run-registry";

interface Follow {
  runId: string;
  controller: AbortController;
}

/** Joins one run's stream (replayed from its start) and records every title its values carry. */
async function followRun(qc: QueryClient, threadId: string, runId: string, signal: AbortSignal) {
  try {
    const events = (await loadBrowserClient()).runs.joinStream(threadId, runId, {
      signal,
      lastEventId: "-1",
      streamMode: ["values"],
    });
    for await (const { event, data } of events) {
      if (event === "values") recordStreamTitle(qc, threadId, data);
      if (event === "error") break;
    }
  } catch (err) {
    if (signal.aborted) return;
    // Join failed (network, server): stop tracking it, say so, and offer to follow it again.
    runRegistry.forget(threadId, runId);
    recordRunActivity(qc, threadId, false);
    toast.error(`Lost track of an answer being written in another conversation. ${errorTextForPeople(err)}`, {
      id: `follow-failed:${threadId}`,
      duration: Infinity,
      action: { label: "Retry", onClick: () => runRegistry.setItem(`lg:stream:${threadId}`, runId) },
    });
    return;
  }
  if (signal.aborted) return;
  runRegistry.forget(threadId, runId);
  recordRunActivity(qc, threadId, false);
}

/**
 * Keeps titles live for runs this tab started in threads that are NOT open right now (the open
 * thread's own useStream already delivers them): joins each such run's stream and patches that
 * one row from its `values` events. Stops following a run when its thread is opened again.
 */
export function useBackgroundRuns(): void {
  const qc = useQueryClient();
  useEffect(() => {
    const following = new Map<string, Follow>();
    const sync = () => {
      const open = runRegistry.openThread;
      const wanted = new Map(runRegistry.list().filter((r) => r.threadId !== open).map((r) => [r.threadId, r.runId]));
      for (const [threadId, f] of following) {
        if (wanted.get(threadId) !== f.runId) {
          f.controller.abort();
          following.delete(threadId);
        }
      }
      for (const [threadId, runId] of wanted) {
        if (following.has(threadId)) continue;
        const controller = new AbortController();
        following.set(threadId, { runId, controller });
        void followRun(qc, threadId, runId, controller.signal).finally(() => {
          if (following.get(threadId)?.controller === controller) following.delete(threadId);
        });
      }
    };
    const off = runRegistry.subscribe(sync);
    sync();
    return () => {
      off();
      for (const f of following.values()) f.controller.abort();
      following.clear();
    };
  }, [qc]);
}
