import type { Client, ThreadSelectField } from "@langchain/langgraph-sdk";
import { usesStandardApi } from "./api-flavor";
import { LEAN_EXTRACT, searchStandardThreads } from "./standard-search";
import { toThreadRow } from "./thread-row";
import type { PageParam, ThreadPage, ThreadRow } from "./types";
import { clampTitleSearch } from "@/lib/title/search-words";

export const PAGE_SIZE = 50;
/**
 * Each next page starts this many rows before the previous one ended. `$as_of` keeps the order
 * fixed while threads are updated, but a thread deleted elsewhere between two page loads shifts
 * later rows up; the overlap re-reads them (the list model drops the duplicates), so up to this
 * many such deletes skip nothing.
 */
export const PAGE_OVERLAP = 5;

/**
 * The lean list request: registry columns + the extracted title, never `values`. `activity_at`
 * (Threadline's, unknown to the SDK's types) moves only when the conversation does, so a rename
 * or a star never reorders the list.
 */
export const LEAN_SELECT = ["thread_id", "created_at", "activity_at", "status", "metadata"] as const;
const leanSelect = () => [...LEAN_SELECT] as ThreadSelectField[];
const ACTIVITY_SORT = "activity_at" as NonNullable<Parameters<Client["threads"]["search"]>[0]>["sortBy"];

/** First page of a list: `asOf` "" means "snapshot now". */
export const FIRST_PAGE: PageParam = { offset: 0, asOf: "" };

// `$as_of` is compared with the SERVER's clock. The browser learns how far its own clock is off
// from the server-rendered page's time; small differences (render + network time) are ignored.
let serverClockOffsetMs = 0;
const SKEW_TOLERANCE_MS = 5_000;

export function noteServerTime(serverNowMs: number, clientNowMs = Date.now()): void {
  const offset = serverNowMs - clientNowMs;
  serverClockOffsetMs = Math.abs(offset) > SKEW_TOLERANCE_MS ? offset : 0;
}

/** "Now" on the server's clock, as the API's `$as_of` expects. */
export function serverNowIso(): string {
  return new Date(Date.now() + serverClockOffsetMs).toISOString();
}

/** The list's metadata filter, on either API: the title search and the starred section. */
function listFilter(search: string, starredOnly?: boolean): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  // A pasted essay is cut to what the API takes (only its first words count anyway), not refused.
  const text = clampTitleSearch(search);
  if (text) metadata.$title_search = text;
  if (starredOnly) metadata.starred = true;
  return metadata;
}

/**
 * One page of the sidebar list. Every page of one list shares the `$as_of` snapshot of its first
 * page, so paging stays stable while threads are updated.
 */
export async function fetchThreadPage(
  client: Client,
  param: PageParam,
  search: string,
  opts: { limit?: number; signal?: AbortSignal; starredOnly?: boolean } = {},
): Promise<ThreadPage> {
  const limit = opts.limit ?? PAGE_SIZE;
  if (usesStandardApi()) return fetchStandardPage(client, param, search, limit, opts);
  const asOf = param.asOf || serverNowIso();
  const metadata = { $as_of: asOf, ...listFilter(search, opts.starredOnly) };
  const fetchedAt = Date.now();
  const threads = await client.threads.search({
    select: leanSelect(),
    extract: { ...LEAN_EXTRACT },
    sortBy: ACTIVITY_SORT,
    sortOrder: "desc",
    limit,
    offset: param.offset,
    metadata,
    signal: opts.signal,
  });
  const rows = threads.map(toThreadRow).filter((r): r is ThreadRow => r !== null);
  const overlap = limit > PAGE_OVERLAP * 2 ? PAGE_OVERLAP : 0;
  return { rows, fetchedAt, nextOffset: threads.length < limit ? null : param.offset + limit - overlap, asOf };
}

/** Starred threads sit above every date group, so they are fetched on their own (one page). */
export const STARRED_LIMIT = 200;

export function fetchStarredPage(client: Client, signal?: AbortSignal): Promise<ThreadPage> {
  return fetchThreadPage(client, FIRST_PAGE, "", { limit: STARRED_LIMIT, signal, starredOnly: true });
}

export function nextPageParam(last: ThreadPage): PageParam | undefined {
  return last.nextOffset === null ? undefined : { offset: last.nextOffset, asOf: last.asOf };
}

/**
 * One thread's row from the registry (the list's own source), as a one-row page: an open
 * conversation beyond the loaded pages still gets its sidebar row and header title from it.
 */
export async function fetchThreadRowPage(client: Client, threadId: string, signal?: AbortSignal): Promise<ThreadPage> {
  const fetchedAt = Date.now();
  const query = { ids: [threadId], limit: 1, signal };
  const threads = usesStandardApi()
    ? await searchStandardThreads(client, query)
    : await client.threads.search({ ...query, select: leanSelect(), extract: { ...LEAN_EXTRACT } });
  const rows = threads.map(toThreadRow).filter((r): r is ThreadRow => r !== null && r.id === threadId);
  return { rows, fetchedAt, nextOffset: null, asOf: "" };
}

/**
 * The list on a LangGraph server (LANGGRAPH_API_URL): standard rows. Such a server has no
 * `activity_at` or `$as_of`, so the order is `updated_at` (a rename moves a row up). Its metadata
 * filter is equality only: `$title_search` is answered by our Next server, which reads that
 * server's newest threads and matches their titles (lib/server/remote/title-scan.ts). The title
 * comes from `extract` where the server honours it, else from `values` (standard-search.ts).
 */
async function fetchStandardPage(
  client: Client,
  param: PageParam,
  search: string,
  limit: number,
  opts: { signal?: AbortSignal; starredOnly?: boolean },
): Promise<ThreadPage> {
  const fetchedAt = Date.now();
  const metadata = listFilter(search, opts.starredOnly);
  const threads = await searchStandardThreads(client, {
    sortBy: "updated_at",
    sortOrder: "desc",
    limit,
    offset: param.offset,
    ...(Object.keys(metadata).length ? { metadata } : {}),
    signal: opts.signal,
  });
  const rows = threads.map(toThreadRow).filter((r): r is ThreadRow => r !== null);
  const overlap = limit > PAGE_OVERLAP * 2 ? PAGE_OVERLAP : 0;
  return { rows, fetchedAt, nextOffset: threads.length < limit ? null : param.offset + limit - overlap, asOf: "" };
}
