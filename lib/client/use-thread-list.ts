"use client";
import { useInfiniteQuery, type InfiniteData } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { getBrowserClient } from "./api-client";
import { threadKeys } from "./query-keys";
import { usePatches } from "./row-patches";
import { buildThreadListModel } from "./thread-list-model";
import { fetchThreadPage, FIRST_PAGE, nextPageParam } from "./thread-pages";
import type { PageParam, ThreadPage } from "./types";

/**
 * The sidebar list: one lean request per page (cached, never refetched on focus), merged with
 * this tab's patches into the memoised list model. `initialPage` is the server-rendered first
 * page, so the list is there on first paint.
 */
export function useThreadList(search: string, initialPage: ThreadPage | null, now: number) {
  const [initialData] = useState<InfiniteData<ThreadPage, PageParam> | undefined>(() =>
    initialPage
      ? {
          // Stamp with this tab's clock: live facts are ordered against it.
          pages: [{ ...initialPage, fetchedAt: typeof window === "undefined" ? initialPage.fetchedAt : Date.now() }],
          pageParams: [{ offset: 0, asOf: initialPage.asOf }],
        }
      : undefined,
  );
  const query = useInfiniteQuery({
    queryKey: threadKeys.list(search),
    queryFn: ({ pageParam, signal }) => fetchThreadPage(getBrowserClient(), pageParam, search, { signal }),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextPageParam,
    initialData: search === "" ? initialData : undefined,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const patches = usePatches();
  const pages = query.data?.pages;
  const model = useMemo(
    () => buildThreadListModel(pages ?? [], patches, now, { includeDrafts: search === "" }),
    [pages, patches, now, search],
  );
  return { model, query };
}
