"use client";
import { useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { useEffect } from "react";
import { loadBrowserClient } from "./api-client";
import { threadKeys } from "./query-keys";
import { fetchThreadPage, FIRST_PAGE } from "./thread-pages";
import type { PageParam, ThreadPage } from "./types";

/** Focus after a short blur (alt-tab) must not cost a request each time. */
export const REFRESH_MIN_INTERVAL_MS = 5_000;

/**
 * Puts a freshly fetched first page in place of the cached one; later pages stay (the page
 * overlap absorbs a few threads made elsewhere). The list model then merges as always: the
 * fresher copy of a row wins over an older page, live patches newer than the fetch and
 * optimistic edits still win over it, so nothing flickers back.
 */
export function withFreshFirstPage(
  data: InfiniteData<ThreadPage, PageParam> | undefined,
  fresh: ThreadPage,
): InfiniteData<ThreadPage, PageParam> {
  if (!data?.pages.length) return { pages: [fresh], pageParams: [{ offset: 0, asOf: fresh.asOf }] };
  return { pages: [fresh, ...data.pages.slice(1)], pageParams: [{ offset: 0, asOf: fresh.asOf }, ...data.pageParams.slice(1)] };
}

/**
 * One person, several devices: when this window comes back (focus, tab shown again, network
 * back), the sidebar's first page and the starred threads are read again, so a rename or a new
 * conversation made elsewhere shows without a reload.
 */
export function useRefreshFirstPageOnReturn(search: string) {
  const qc = useQueryClient();
  useEffect(() => {
    let last = Date.now();
    let inFlight: AbortController | null = null;
    const refresh = async () => {
      if (document.visibilityState === "hidden" || inFlight || Date.now() - last < REFRESH_MIN_INTERVAL_MS) return;
      last = Date.now();
      inFlight = new AbortController();
      try {
        const fresh = await fetchThreadPage(await loadBrowserClient(), FIRST_PAGE, search, { signal: inFlight.signal });
        qc.setQueryData<InfiniteData<ThreadPage, PageParam>>(threadKeys.list(search), (data) => withFreshFirstPage(data, fresh));
        if (search === "") void qc.refetchQueries({ queryKey: threadKeys.starred(), exact: true });
      } catch {
        // Offline again or aborted: the cached list stays; the next return tries again.
      } finally {
        inFlight = null;
      }
    };
    const onVisible = () => document.visibilityState === "visible" && void refresh();
    const onReturn = () => void refresh();
    window.addEventListener("focus", onReturn);
    window.addEventListener("online", onReturn);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      inFlight?.abort();
      window.removeEventListener("focus", onReturn);
      window.removeEventListener("online", onReturn);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [qc, search]);
}
