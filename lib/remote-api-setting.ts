/**
 * LANGGRAPH_API_URL, the one switch between Threadline's own API and an external LangGraph server.
 * Read where it is asked (never cached), by the server's forwarder and by lib/client's API-flavour
 * check during a server render; it lives outside both because lib/client may not import lib/server.
 * Only presence is decided here: lib/server/remote/config.ts validates the URL at start.
 */
export function remoteApiSetting(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  return env.LANGGRAPH_API_URL?.trim() || null;
}

/** How many threads a title search in front of a LangGraph server reads, unless set. */
export const REMOTE_SEARCH_SCAN_DEFAULT = 5000;

/**
 * THREADLINE_REMOTE_SEARCH_SCAN: a LangGraph server cannot search titles, so the forwarder reads
 * its threads in the search's order (the sidebar's: most recently updated first) and matches their
 * titles itself (lib/server/remote/title-scan.ts), at most this many per search; the sidebar says
 * so beside the results. An integer 100–100,000.
 */
export function remoteSearchScanSetting(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.THREADLINE_REMOTE_SEARCH_SCAN?.trim();
  if (!raw) return REMOTE_SEARCH_SCAN_DEFAULT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100 || n > 100_000) {
    throw new Error(`THREADLINE_REMOTE_SEARCH_SCAN must be a whole number from 100 to 100000 (got ${JSON.stringify(raw)})`);
  }
  return n;
}
