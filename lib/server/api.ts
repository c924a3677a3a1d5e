import type Database from "better-sqlite3";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { TitleConfig } from "@/lib/title";
import type { AgentGraph } from "./graph";
import { createQueries, type Queries } from "./store/queries";
import { Registry } from "./store/registry";
import { repairAfterRestart, resyncDriftedTitles } from "./runs/repair";
import { Router, pathSegments } from "./http/router";
import { RunManager } from "./runs/run-manager";
import type { RunLimits } from "./runs/run-limits";
import { buildRoutes } from "./http/routes";
import type { ModelTitler } from "@/lib/agent/title-model";
import { TitleService } from "./titles/titles";
import { sqliteApiKeyStore, type ApiKeyStore } from "./auth/api-keys";
import { AuthRunner } from "./auth/enforce";
import { identify, type AuthMode } from "./auth/identity";
import { createAccounts, sqliteAccountsDatabase, type Accounts, type AccountsDatabase } from "./auth/accounts";
import { buildAuth } from "./auth/rules";
import { guardConfigFromEnv, guardRequest, withCors, type GuardConfig } from "./auth/request-guard";

export interface ApiDeps {
  /** The checkpointer's own better-sqlite3 connection: the registry lives in the same file. */
  db: Database.Database;
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
  /** Web-standard handler for everything under the API root, for in-process callers (no network checks). */
  handle(req: Request): Promise<Response>;
  /** The same, for requests from the network: Host allowlist, cross-site refusal and CORS first. */
  serve(req: Request): Promise<Response>;
}

export function createApi(deps: ApiDeps): Api {
  // The saver creates its tables lazily; rollback's SQL touches them, so create them now.
  (deps.checkpointer as unknown as { setup?: () => void }).setup?.();
  const q = createQueries(deps.db);
  const registry = new Registry(q);
  const runs = new RunManager({ graph: deps.graph, registry, q, checkpointer: deps.checkpointer, titleConfig: deps.titleConfig, limits: deps.runLimits });
  const titles = new TitleService({ graph: deps.graph, registry, runs, titleConfig: deps.titleConfig, titler: deps.titler ?? null });
  const router = buildRoutes(new Router());
  const guard = deps.guard ?? guardConfigFromEnv({});
  const mode = deps.authMode ?? "local";
  const keys = sqliteApiKeyStore(deps.db);
  const accounts = mode === "accounts" && deps.accounts ? openAccounts(deps.accounts, deps.db, guard, q) : null;
  const session = accounts ? (headers: Headers) => accounts.sessionUser(headers) : undefined;
  const auth: ApiAuth = { mode, keys, accounts, guard, rules: new AuthRunner(buildAuth((req) => identify(req, mode, () => keys, session))) };
  const repaired = repairAfterRestart(q, registry, runs).catch((err) => console.error("[api] restart repair failed", err));
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
      return router.handle(api, req, pathSegments(new URL(req.url).pathname));
    },
    async serve(req) {
      const refused = guardRequest(req, guard);
      if (refused) return refused;
      return withCors(req, await api.handle(req), guard);
    },
  };
  return api;
}

/** better-auth over the threads' database; the first account adopts local-mode threads. */
function openAccounts(cfg: AccountsDeps, db: Database.Database, guard: GuardConfig, q: Queries): Accounts {
  const adopt = () => {
    const out = q.adoptUnownedThreads();
    if (out?.adopted) console.log(`[auth] ${out.adopted} conversation(s) from local mode now belong to the first account`);
  };
  const accounts = createAccounts({
    database: cfg.database ?? sqliteAccountsDatabase(db),
    secret: cfg.secret,
    baseURL: cfg.baseURL,
    allowedHosts: guard.allowedHosts,
    onUserCreated: adopt,
  });
  // A crash between a first sign-up and its hook, or threads made in local mode since: adopt at start.
  return { ...accounts, ready: accounts.ready.then(adopt) };
}
