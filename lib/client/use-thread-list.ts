"use client";
import { useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { loadBrowserClient } from "./api-client";
import { useRefreshFirstPageOnReturn } from "./first-page-refresh";
import { threadKeys } from "./query-keys";
import { usePatches } from "./row-patches";
import { buildThreadListModel, patchedTitles } from "./thread-list-model";
import { fetchStarredPage, fetchThreadPage, fetchThreadRowPage, FIRST_PAGE, nextPageParam } from "./thread-pages";
import type { PageParam, ThreadPage } from "./types";

/** Server-rendered first pages of the sidebar. */
export interface InitialList {
  page: ThreadPage | null;
  starred: ThreadPage | null;
}

// Live facts are ordered against this tab's clock: stamp server-rendered pages on arrival.
const restamp = (page: ThreadPage | null) =>
  page ? { ...page, fetchedAt: typeof window === "undefined" ? page.fetchedAt : Date.now() } : undefined;

/** Seeds the open conversation's server-rendered registry row into the cache (fresher than any copy held). */
export function seedThreadRow(qc: QueryClient, threadId: string, page: ThreadPage | null): void {
  if (page) qc.setQueryData(threadKeys.one(threadId), restamp(page));
}

const holds = (pages: readonly ThreadPage[] | undefined, id: string) => pages?.some((p) => p.rows.some((r) => r.id === id)) ?? false;

/**
 * The sidebar list: one lean request per page (cached) plus one for the starred threads, merged
 * with this tab's patches into the memoised list model. The server-rendered first pages seed the
 * cache, so the list is there on first paint. Only the first page is read again, when the window
 * comes back (first-page-refresh.ts): react-query's own focus refetch would re-read every page.
 * The open conversation is always in it, also when it lies beyond the loaded pages (its own row query).
 */
export function useThreadList(
  search: string,
  initial: InitialList,
  now: number,
  tzOffsetMin: number | null,
  openThreadId: string | null = null,
) {
  const [seed] = useState(() => ({ page: restamp(initial.page), starred: restamp(initial.starred) }));
  const query = useInfiniteQuery({
    queryKey: threadKeys.list(search),
    queryFn: async ({ pageParam, signal }) => fetchThreadPage(await loadBrowserClient(), pageParam, search, { signal }),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextPageParam,
    initialData:
      search === "" && seed.page
        ? ({ pages: [seed.page], pageParams: [{ offset: 0, asOf: seed.page.asOf }] } satisfies InfiniteData<ThreadPage, PageParam>)
        : undefined,
    // The main list is kept live by patches. A title search is matched by the server: a cached
    // one shows at once when typed again and is asked again behind it, as titles may have changed.
    staleTime: search === "" ? Infinity : 0,
    gcTime: search === "" ? Infinity : 5 * 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const starred = useQuery({
    queryKey: threadKeys.starred(),
    queryFn: async ({ signal }) => fetchStarredPage(await loadBrowserClient(), signal),
    initialData: seed.starred,
    staleTime: Infinity,
    gcTime: Infinity,
    enabled: search === "",
  });
  useRefreshFirstPageOnReturn(search);
  const patches = usePatches();
  // A title changed in this tab (a rename, a stream's title, a new conversation) while a search
  // is shown: the search is asked again, so it lists what matches the titles now.
  const qc = useQueryClient();
  const titles = useMemo(() => patchedTitles(patches), [patches]);
  const titlesBefore = useRef(titles);
  useEffect(() => {
    if (titlesBefore.current === titles) return;
    titlesBefore.current = titles;
    if (search !== "") void qc.invalidateQueries({ queryKey: threadKeys.list(search) });
  }, [titles, search, qc]);
  const pages = query.data?.pages;
  const starredPage = search === "" ? starred.data : undefined;
  const openId = search === "" ? openThreadId : null;
  const openIsListed = !openId || holds(pages, openId) || holds(starredPage ? [starredPage] : [], openId) || Boolean(patches[openId]?.draft);
  const openRow = useQuery({
    queryKey: threadKeys.one(openId ?? ""),
    queryFn: async ({ signal }) => fetchThreadRowPage(await loadBrowserClient(), openId ?? "", signal),
    enabled: !openIsListed,
    staleTime: Infinity,
    gcTime: 5 * 60_000,
  });
  const openPage = openId && !openIsListed ? openRow.data : undefined;
  const model = useMemo(() => {
    // Pages that scroll in go last, so that each extends the model built before it (thread-list-model).
    const all = [...(starredPage ? [starredPage] : []), ...(openPage ? [openPage] : []), ...(pages ?? [])];
    return buildThreadListModel(all, patches, now, { includeDrafts: search === "", tzOffsetMin });
  }, [pages, starredPage, openPage, patches, now, search, tzOffsetMin]);
  return { model, query };
}
