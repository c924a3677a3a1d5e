import type Database from "better-sqlite3";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { TitleConfig } from "@/lib/title";
import type { AgentGraph } from "./graph";
import { createQueries, queriesFor, type Queries } from "./store/queries";
import type { Store } from "./store/db";
import { migrate } from "./store/migrations";
import { Registry } from "./store/registry";
import { repairAfterRestart, resyncDriftedTitles } from "./runs/repair";
import { Router, pathSegments } from "./http/router";
import { whenDurable } from "./http/http";
import { RunManager } from "./runs/run-manager";
import type { RunLimits } from "./runs/run-limits";
import { buildRoutes } from "./http/routes";
import type { ModelTitler } from "@/lib/agent/title-model";
import { TitleService } from "./titles/titles";
import { afterReady, type ApiKeyStore } from "./auth/api-keys";
import { apiKeyStore } from "./store/api-keys";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { GatedSqliteSaver } from "@/lib/agent/sqlite-gate";
import { durabilityOf } from "@/lib/agent/sqlite-durability";
import { AuthRunner } from "./auth/enforce";
import { identify, type AuthMode } from "./auth/identity";
import { accountsDatabaseFor, createAccounts, type Accounts, type AccountsDatabase } from "./auth/accounts";
import { buildAuth } from "./auth/rules";
import { guardConfigFromEnv, guardRequest, unzippedOnLoopback, withCors, type GuardConfig } from "./auth/request-guard";

export interface ApiDeps {
  /** SQLite: the checkpointer's own better-sqlite3 connection (the registry lives in the same file). */
  db?: Database.Database;
  /** Postgres (or any store made elsewhere): the registry's database. One of `db` / `store`. */
  store?: Store;
  checkpointer: BaseCheckpointSaver;
  graph: AgentGraph;
  titleConfig: TitleConfig;
  /** The title model behind "Let AI name this"; null/absent = the local fallback. */
  titler?: ModelTitler | null;
  /** Run time, concurrency and replay bounds (RUN_TIMEOUT_S, MAX_CONCURRENT_RUNS, RUN_REPLAY_EVENTS). */
  runLimits?: Partial<RunLimits>;
  /** `THREADLINE_AUTH`; default `local` (one implicit user). */
  authMode?: AuthMode;
  /** Host allowlist and CORS origins; default: loopback hosts, no CORS. */
  guard?: GuardConfig;
  /** Accounts mode's sign-in (better-auth); without it only API keys identify callers. */
  accounts?: AccountsDeps;
}

export interface AccountsDeps {
  secret: string;
  /** `BETTER_AUTH_URL`. */
  baseURL?: string | null;
  /** better-auth's database; default: `db` (the threads' own SQLite file). */
  database?: AccountsDatabase;
}

export interface ApiAuth {
  mode: AuthMode;
  /** The LangGraph auth rules (lib/server/auth/rules.ts), run with the LangGraph server's semantics. */
  rules: AuthRunner;
  keys: ApiKeyStore;
  /** better-auth (accounts mode with sign-in), else null. */
  accounts: Accounts | null;
  /** The network-edge checks (request-guard.ts) for the routes outside the API root. */
  guard: GuardConfig;
}

export interface Api {
  q: Queries;
  registry: Registry;
  runs: RunManager;
  titles: TitleService;
  graph: AgentGraph;
  checkpointer: BaseCheckpointSaver;
  auth: ApiAuth;
  /** Resolves once restart repair is done; requests wait for it. */
  ready: Promise<void>;
  /** The background check that re-syncs any title drift restart repair had no mark for (count fixed). */
  driftCheck: Promise<number>;
  /** Resolves once every write committed so far is on disk (SQLite group commit; no-op elsewhere). */
  durable(): Promise<void>;
  /** Web-standard handler for everything under the API root, for in-process callers (no network checks). */
  handle(req: Request): Promise<Response>;
  /** The same, for requests from the network: Host allowlist, cross-site refusal and CORS first. */
  serve(req: Request): Promise<Response>;
}

export function createApi(deps: ApiDeps): Api {
  // A plain SqliteSaver on the registry's connection could write inside a registry transaction.
  if (deps.checkpointer instanceof SqliteSaver && !(deps.checkpointer instanceof GatedSqliteSaver)) {
    throw new Error("createApi needs a GatedSqliteSaver (lib/agent/sqlite-gate.ts) on the registry's connection");
  }
  // The saver creates its tables lazily; rollback's SQL touches them, so create them first
  // (SqliteSaver's setup is synchronous, PostgresSaver's is not: awaited before the migrations).
  const saverReady = Promise.resolve((deps.checkpointer as unknown as { setup?: () => unknown }).setup?.());
  if (!deps.store && !deps.db) throw new Error("createApi needs the SQLite connection (db) or a store");
  const q = deps.store ? queriesFor(deps.store) : createQueries(deps.db!);
  const durability = durabilityOf(deps.db);
  const registry = new Registry(q);
  const runs = new RunManager({ graph: deps.graph, registry, q, checkpointer: deps.checkpointer, titleConfig: deps.titleConfig, limits: deps.runLimits, durable: () => durability?.flush() ?? Promise.resolve() });
  const titles = new TitleService({ graph: deps.graph, registry, runs, titleConfig: deps.titleConfig, titler: deps.titler ?? null });
  const router = buildRoutes(new Router());
  const guard = deps.guard ?? guardConfigFromEnv({});
  const mode = deps.authMode ?? "local";
  // Migrations first (a failure there fails every request, loudly); then restart repair.
  const migrated = saverReady.then(() => migrate(q.store));
  const keys = afterReady(migrated, apiKeyStore(q.store));
  const accounts = mode === "accounts" && deps.accounts ? openAccounts(deps.accounts, q, guard, migrated) : null;
  const session = accounts ? (headers: Headers) => accounts.sessionUser(headers) : undefined;
  const auth: ApiAuth = { mode, keys, accounts, guard, rules: new AuthRunner(buildAuth((req) => identify(req, mode, () => keys, session))) };
  const repaired = migrated.then(() => repairAfterRestart(q, registry, runs).catch((err) => console.error("[api] restart repair failed", err)));
  const ready = accounts ? Promise.all([repaired, accounts.ready]).then(() => undefined) : repaired;
  const driftCheck = ready.then(() => resyncDriftedTitles(q, runs)).catch((err) => (console.error("[api] drift check failed", err), 0));
  const api: Api = {
    q,
    registry,
    runs,
    titles,
    graph: deps.graph,
    checkpointer: deps.checkpointer,
    auth,
    ready,
    driftCheck,
    async handle(req) {
      await ready;
      return whenDurable(req, await router.handle(api, req, pathSegments(new URL(req.url).pathname)), api.durable);
    },
    durable: () => durability?.flush() ?? Promise.resolve(),
    async serve(req) {
      const refused = guardRequest(req, guard);
      if (refused) return refused;
      return withCors(req, unzippedOnLoopback(req, await api.handle(req)), guard);
    },
  };
  return api;
}

/** better-auth over the threads' database; the first account adopts local-mode threads. */
function openAccounts(cfg: AccountsDeps, q: Queries, guard: GuardConfig, migrated: Promise<unknown>): Accounts {
  // A sign-up can arrive before the registry's migrations are done (better-auth has its own).
  const adopt = async () => {
    await migrated;
    const out = await q.adoptUnownedThreads();
    if (out?.adopted) console.log(`[auth] ${out.adopted} conversation(s) from local mode now belong to the first account`);
  };
  const accounts = createAccounts({
    database: cfg.database ?? accountsDatabaseFor(q.store),
    secret: cfg.secret,
    baseURL: cfg.baseURL,
    allowedHosts: guard.allowedHosts,
    onUserCreated: adopt,
  });
  // A crash between a first sign-up and its hook, or threads made in local mode since: adopt at start.
  return { ...accounts, ready: Promise.all([migrated, accounts.ready]).then(adopt) };
}
