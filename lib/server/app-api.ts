import { getAppAgent } from "@/lib/agent";
import { createApi, type Api } from "./api";
import { postgresStore } from "./store/db";
import { runLimitsFromEnv } from "./runs/run-limits";
import type { AgentGraph } from "./graph";
import { authModeFromEnv } from "./auth/identity";
import { guardConfigFromEnv } from "./auth/request-guard";

const key = Symbol.for("threadline.api");
type G = typeof globalThis & { [key]?: Promise<Api> };

/**
 * The server's one API instance over the app agent. On globalThis so Next dev's module reloads
 * reuse it: a second run manager would not know the first one's running runs.
 */
export function getApi(): Promise<Api> {
  const g = globalThis as G;
  g[key] ??= getAppAgent().then((app) =>
    createApi({
      db: app.db,
      store: app.databaseUrl ? postgresStore(app.databaseUrl) : undefined,
      checkpointer: app.checkpointer,
      graph: app.agent.graph as unknown as AgentGraph,
      titleConfig: app.titleConfig,
      titler: app.titler,
      authMode: authModeFromEnv(),
      guard: guardConfigFromEnv(),
      runLimits: runLimitsFromEnv(process.env),
    }),
  );
  return g[key];
}
