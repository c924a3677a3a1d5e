import { dataDir, getAppAgent } from "@/lib/agent";
import { createApi, type Api } from "./api";
import { postgresStore } from "./store/db";
import { runLimitsFromEnv } from "./runs/run-limits";
import type { AgentGraph } from "./graph";
import { authModeFromEnv } from "./auth/identity";
import { guardConfigFromEnv } from "./auth/request-guard";
import { authSecret } from "./auth/auth-secret";

const key = Symbol.for("threadline.api");
type G = typeof globalThis & { [key]?: Promise<Api> };

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
