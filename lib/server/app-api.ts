import { dataDir, getAppAgent } from "@/lib/agent";
import { createApi, type Api } from "./api";
import { postgresStore } from "./store/db";
import { runLimitsFromEnv } from "./runs/run-limits";
import type { AgentGraph } from "./graph";
import { authModeFromEnv } from "./auth/identity";
import { guardConfigFromEnv } from "./auth/request-guard";
import { authSecret } from "./auth/auth-secret";
import { remoteApiSetting } from "@/lib/remote-api-setting";

const key = Symbol.for("threadline.api");
type G = typeof globalThis & { [key]?: Promise<Api> };

/**
 * Does this process serve its own API? Not in front of a LangGraph server in local mode: there
 * nothing of it is used (no agent, runs, registry or database lock), so several web processes
 * can stand in front of one LangGraph server. With accounts it is still opened: sign-in, sessions
 * and API keys live in its database.
 */
export function needsEmbeddedApi(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return remoteApiSetting(env) == null || authModeFromEnv(env) === "accounts";
}

/**
 * The server's one API instance over the app agent. On globalThis so Next dev's module reloads
 * reuse it: a second run manager would not know the first one's running runs.
 */
export function getApi(): Promise<Api> {
  const g = globalThis as G;
  g[key] ??= getAppAgent().then((app) => {
    const authMode = authModeFromEnv();
    return createApi({
      db: app.db,
      store: app.databaseUrl ? postgresStore(app.databaseUrl) : undefined,
      checkpointer: app.checkpointer,
      graph: app.agent.graph as unknown as AgentGraph,
      titleConfig: app.titleConfig,
      titler: app.titler,
      authMode,
      guard: guardConfigFromEnv(),
      runLimits: runLimitsFromEnv(process.env),
      accounts: authMode === "accounts" ? { secret: authSecret(dataDir()), baseURL: process.env.BETTER_AUTH_URL } : undefined,
    });
  });
  return g[key];
}
