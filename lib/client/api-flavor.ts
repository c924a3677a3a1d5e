import { remoteApiSetting, remoteSearchScanSetting } from "@/lib/remote-api-setting";

/**
 * Which API the app talks to. Threadline's own API has extensions (lean list with `extract`,
 * `activity_at`, `$as_of`, title search, regenerate, title history and restore); a LangGraph
 * server (LANGGRAPH_API_URL) offers only the standard Agent Protocol, and the app degrades:
 * standard list rows, and the Threadline-only actions disabled with NOT_OFFERED as the reason.
 *
 * A plain module (no React) so server components, the list fetchers and components all read the
 * same answer, derived where it is read, never set: on the server from the environment (the same
 * setting as lib/server/remote's usesRemoteServer, lib/remote-api-setting.ts), in the browser from the `data-api` attribute the
 * root layout renders on <html>, so a hydrated page agrees with its server render.
 */
export const NOT_OFFERED = "Not offered by the LangGraph server this app runs on";

export function usesStandardApi(): boolean {
  if (typeof document === "undefined") return remoteApiSetting() != null;
  return document.documentElement.dataset.api === "standard";
}

/**
 * In front of a LangGraph server, how many of its most recently updated threads a title search
 * reads (THREADLINE_REMOTE_SEARCH_SCAN; the `data-search-scan` attribute in the browser); null on
 * Threadline's own API, whose search covers every thread.
 */
export function standardSearchScan(): number | null {
  if (!usesStandardApi()) return null;
  if (typeof document === "undefined") return remoteSearchScanSetting();
  const n = Number(document.documentElement.dataset.searchScan);
  return Number.isInteger(n) && n > 0 ? n : null;
}
