"use client";
import { useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useSyncExternalStore } from "react";
import { sameTitleFact, type TitleFact, type TitleSource } from "@/lib/title";
import { threadKeys } from "./query-keys";
import { isBusy, resolveThreadTitle } from "./resolve-row-title";
import { getPatches } from "./row-patches";
import type { ThreadPage, ThreadRow } from "./types";

export interface ThreadTitleView {
  title: string | null;
  source: TitleSource | null;
  pending: boolean;
  /** A run is going on the thread, as far as this tab knows (its row, or a run of its own). */
  busy: boolean;
}

const NONE: ThreadTitleView = { title: null, source: null, pending: false, busy: false };

/** Every registry page this tab holds that may carry `id`: the list, the starred rows, its own row. */
export function cachedPagesFor(qc: QueryClient, id: string): ThreadPage[] {
  const list = qc.getQueryData<InfiniteData<ThreadPage>>(threadKeys.list(""))?.pages ?? [];
  const starred = qc.getQueryData<ThreadPage | null>(threadKeys.starred());
  const own = qc.getQueryData<ThreadPage | null>(threadKeys.one(id));
  return [...list, ...(starred ? [starred] : []), ...(own ? [own] : [])];
}

function findListRow(qc: QueryClient, id: string): { row: ThreadRow; fetchedAt: number } | undefined {
  let found: { row: ThreadRow; fetchedAt: number } | undefined;
  for (const page of cachedPagesFor(qc, id)) {
    const row = page.rows.find((r) => r.id === id);
    if (row && (!found || page.fetchedAt > found.fetchedAt)) found = { row, fetchedAt: page.fetchedAt };
  }
  return found;
}

/**
 * The one title of a thread, exactly as its sidebar row shows it (same registry rows, same
 * `resolveThreadTitle`). `seed` is used only when no cached page holds the thread at all.
 */
export function computeThreadTitle(qc: QueryClient, threadId: string | null, seed?: TitleFact | null): ThreadTitleView {
  if (!threadId) return NONE;
  const patch = getPatches(qc)[threadId];
  const listed = findListRow(qc, threadId);
  const seededRow: ThreadRow | undefined =
    !listed && seed ? { id: threadId, createdAt: "", activityAt: "", status: "idle", starred: false, title: seed } : undefined;
  const resolved = resolveThreadTitle(listed?.row ?? seededRow, listed?.fetchedAt ?? 0, patch);
  const busy = isBusy(listed?.row.status, listed?.fetchedAt ?? 0, patch);
  return { title: resolved.title, source: resolved.source, pending: resolved.local || (resolved.title === null && busy), busy };
}

const same = (a: ThreadTitleView, b: ThreadTitleView) =>
  a.pending === b.pending && a.busy === b.busy && sameTitleFact(a, b);

/** Subscribes a component (chat header, document.title) to one thread's resolved title. */
export function useThreadTitle(threadId: string | null, seed?: TitleFact | null): ThreadTitleView {
  const qc = useQueryClient();
  const last = useRef<ThreadTitleView>(NONE);
  const getSnapshot = useCallback(() => {
    const next = computeThreadTitle(qc, threadId, seed);
    if (!same(last.current, next)) last.current = next;
    return last.current;
  }, [qc, threadId, seed]);
  const subscribe = useCallback((onChange: () => void) => qc.getQueryCache().subscribe(onChange), [qc]);
  return useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
}
