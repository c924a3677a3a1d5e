"use client";
import type { Config, ThreadStateSelectField } from "@langchain/langgraph-sdk";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { loadBrowserClient } from "./api-client";
import { titleRevisions, type HistoryEntry, type TitleRevision } from "./title-revisions";

/** How many revisions the panel lists; older ones are cut off (and said so). */
export const MAX_TITLE_REVISIONS = 20;
// Every turn adds a few checkpoints; this bounds how far back one panel opening reads.
const PAGE_SIZE = 100;
const MAX_PAGES = 10;
// Only what a revision needs, not every checkpoint's full message list.
const SELECT: ThreadStateSelectField[] = ["values.title", "values.title_source", "checkpoint", "created_at"];

export interface TitleHistory {
  revisions: TitleRevision[];
  /** Older revisions (or checkpoints) exist beyond what was read. */
  truncated: boolean;
}

export const titleHistoryKey = (threadId: string) => ["title-history", threadId] as const;

/** Reads checkpoint history page by page until it holds more revisions than the panel shows. */
export async function fetchTitleHistory(threadId: string, signal?: AbortSignal): Promise<TitleHistory> {
  const client = await loadBrowserClient();
  const entries: HistoryEntry[] = [];
  let before: Config | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const states: HistoryEntry[] = await client.threads.getHistory(threadId, { limit: PAGE_SIZE, before, select: SELECT, signal });
    entries.push(...states);
    const lastId = states.at(-1)?.checkpoint?.checkpoint_id;
    if (states.length < PAGE_SIZE || !lastId) {
      return { revisions: titleRevisions(entries, MAX_TITLE_REVISIONS), truncated: false };
    }
    if (titleRevisions(entries, MAX_TITLE_REVISIONS + 1).length > MAX_TITLE_REVISIONS) break;
    before = { configurable: { checkpoint_id: lastId } };
  }
  return { revisions: titleRevisions(entries, MAX_TITLE_REVISIONS), truncated: true };
}

/**
 * The title revisions of one thread, fetched fresh each time the panel opens, and again when a run
 * on the thread ends (`busy` is part of the key: the run writes a rename made during it into the
 * checkpoints); the previous revisions stay shown meanwhile (`isPlaceholderData`).
 */
export function useTitleHistory(threadId: string, enabled: boolean, busy: boolean) {
  return useQuery({
    queryKey: [...titleHistoryKey(threadId), busy],
    queryFn: ({ signal }) => fetchTitleHistory(threadId, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
    placeholderData: keepPreviousData,
  });
}
