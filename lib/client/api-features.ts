"use client";
import { createContext, useContext } from "react";

/**
 * Which API the app talks to. Threadline's own API has extensions (lean list with `extract`,
 * `activity_at`, `$as_of`, title search, regenerate, title history and restore); a LangGraph
 * server (LANGGRAPH_API_URL) offers only the standard Agent Protocol, and the UI degrades:
 * standard list rows, and the Threadline-only actions shown disabled with NOT_OFFERED as the reason.
 * The server knows which it is (its environment) and passes it to the page (app/layout.tsx).
 */
export const NOT_OFFERED = "Not offered by the LangGraph server this app runs on";

export const StandardApiContext = createContext(false);
export const useStandardApi = () => useContext(StandardApiContext);

// For code outside React (the list's fetchers): set once per render by Providers. One value per
// server process (it comes from the environment), so sharing it between requests is correct.
let standardApi = false;
export function setStandardApi(on: boolean): void {
  standardApi = on;
}
export const usesStandardApi = () => standardApi;
