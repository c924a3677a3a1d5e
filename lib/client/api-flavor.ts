/**
 * Which API the app talks to. Threadline's own API has extensions (lean list with `extract`,
 * `activity_at`, `$as_of`, title search, regenerate, title history and restore); a LangGraph
 * server (LANGGRAPH_API_URL) offers only the standard Agent Protocol, and the app degrades:
 * standard list rows, and the Threadline-only actions disabled with NOT_OFFERED as the reason.
 *
 * A plain module (no React) so server components and the list fetchers can read it. The server
 * knows which API it is from its environment: app/_data.ts sets it for server components,
 * Providers (from the layout's prop) for the browser. One value per process, so sharing it
 * between requests is correct.
 */
export const NOT_OFFERED = "Not offered by the LangGraph server this app runs on";

let standardApi = false;
export function setStandardApi(on: boolean): void {
  standardApi = on;
}
export const usesStandardApi = () => standardApi;
