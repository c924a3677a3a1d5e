import { dataDir, getAppAgent } from "@/lib/agent";
import { createApi, type Api } from "./api";
import { postgresStore } from "./store/db";
import { runLimitsFromEnv } from "./runs/run-limits";
import type { AgentGraph } from "./graph";
import { authModeFromEnv } from "./auth/identity";
import { guardConfigFromEnv } from "./auth/request-guard";
import { authSecret } from "./auth/auth-secret";
import { remoteApiSetting } from "@/lib/remote-api-setting";
import type { AccountsHost } from "./auth/account-routes";
import { openAccountsOnly } from "./auth/accounts-host";

const key = Symbol.for("threadline.api");
const accountsKey = Symbol.for("threadline.accountsOnly");
type G = typeof globalThis & { [key]?: Promise<Api>; [accountsKey]?: Promise<AccountsHost> };

/**
 * Does this process serve its own API (agent, runs, registry, checkpoints)? Not in front of a
 * LangGraph server: there the threads live on that server. With accounts on, sign-in, sessions and
 * API keys still live in this process's database, which getAccountsHost opens on its own.
 */
export function needsEmbeddedApi(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return remoteApiSetting(env) == null;
}

/** Local mode in front of a LangGraph server: no accounts and no database (the routes answer 404). */
const noAccountsHost = (): AccountsHost => ({ auth: { guard: guardConfigFromEnv(), accounts: null, keys: null }, durable: () => Promise.resolve() });

/**
 * Who serves sign-in, sessions and API keys: the embedded API, or in front of a LangGraph server
 * only the accounts database (lib/server/auth/accounts-host.ts), never the graph or a checkpointer.
 */
export function getAccountsHost(): Promise<AccountsHost> {
  if (needsEmbeddedApi()) return getApi();
  const g = globalThis as G;
  g[accountsKey] ??= authModeFromEnv() === "accounts" ? openAccountsOnly() : Promise.resolve(noAccountsHost());
  return g[accountsKey];
}

/**
 * What a starting server opens at once (taking its database's lock, so a second process on the
 * same database stops at start with the reason), or null when it has no database.
 */
export function openAtStart(): Promise<unknown> | null {
  return needsEmbeddedApi() || authModeFromEnv() === "accounts" ? getAccountsHost() : null;
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
