import type { FallbackCut } from "@/lib/title";

/** What the server tells the page about its setup (computed in app/_data.ts). */
export interface AppInfo {
  /**
   * True when no model provider is configured and the built-in offline model answers; null in
   * front of a LangGraph server (LANGGRAPH_API_URL), whose models this server does not know.
   */
  offlineModel: boolean | null;
  chatModel: string | null;
  /** The title settings the browser needs to compute the same instant title as the server. */
  title: { enabled: boolean; instant: boolean; max_chars: number; fallback_cut: FallbackCut };
}
