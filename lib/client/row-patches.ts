"use client";
import { useQuery, type QueryClient } from "@tanstack/react-query";
import { threadKeys } from "./query-keys";
import type { RowPatch, RowPatches } from "./types";

const EMPTY: RowPatches = Object.freeze({});

export function getPatches(qc: QueryClient): RowPatches {
  return qc.getQueryData<RowPatches>(threadKeys.patches()) ?? EMPTY;
}

/**
 * Replaces exactly one row's patch in the cache (other rows keep their object identity, so
 * memoised rows that did not change do not re-render). Returning null drops the row's patch.
 */
export function patchRow(qc: QueryClient, id: string, update: (prev: RowPatch) => RowPatch | null): void {
  qc.setQueryData<RowPatches>(threadKeys.patches(), (all = EMPTY) => {
    const prev = all[id] ?? {};
    const next = update(prev);
    if (next === prev) return all;
    const copy = { ...all };
    if (next === null) delete copy[id];
    else copy[id] = next;
    return copy;
  });
}

/** Subscribes to all patches (the list model needs them together). */
export function usePatches(): RowPatches {
  const { data } = useQuery({
    queryKey: threadKeys.patches(),
    queryFn: () => EMPTY, // never runs: the data is local and never stale
    initialData: EMPTY,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  return data;
}
