import { remoteApiSetting, remoteSearchScanSetting } from "@/lib/remote-api-setting";
import { authModeFromEnv, type AuthMode } from "../auth/identity";
import { forwardSecretFromEnv } from "../auth/forwarded-identity";
import { guardConfigFromEnv, type GuardConfig } from "../auth/request-guard";

/** LANGGRAPH_API_URL mode: the web app in front of an external LangGraph server. */
export interface RemoteConfig {
  /** The upstream API root, without a trailing slash (e.g. http://127.0.0.1:2025). */
  apiUrl: string;
  /** `LANGSMITH_API_KEY`, sent upstream as `x-api-key`; never to the browser. */
  apiKey: string | null;
  mode: AuthMode;
  /** `THREADLINE_FORWARD_SECRET`: signs the forwarded identity (required with accounts). */
  secret: string | null;
  guard: GuardConfig;
  /** THREADLINE_REMOTE_SEARCH_SCAN: at most this many threads read per title search (title-scan.ts). */
  searchScan: number;
}

/** null when LANGGRAPH_API_URL is unset (the embedded API serves). Bad values stop the server. */
export function remoteConfigFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RemoteConfig | null {
  const raw = remoteApiSetting(env);
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`LANGGRAPH_API_URL must be an absolute http(s) URL (got ${JSON.stringify(raw)})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`LANGGRAPH_API_URL must be an http(s) URL (got ${JSON.stringify(raw)})`);
  }
  const mode = authModeFromEnv(env);
  const secret = forwardSecretFromEnv(env);
  if (mode === "accounts" && !secret) {
    throw new Error("THREADLINE_AUTH=accounts with LANGGRAPH_API_URL needs THREADLINE_FORWARD_SECRET (the same value on the LangGraph server)");
  }
  return {
    apiUrl: `${url.origin}${url.pathname.replace(/\/+$/, "")}`,
    apiKey: env.LANGSMITH_API_KEY?.trim() || null,
    mode,
    secret,
    guard: guardConfigFromEnv(env),
    searchScan: remoteSearchScanSetting(env),
  };
}
