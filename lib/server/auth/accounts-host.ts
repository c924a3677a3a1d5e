import fs from "node:fs";
import { lockPostgres } from "@/lib/agent/process-lock";
import { dataDir, openAppSqlite, postgresUrl } from "@/lib/agent/runtime";
import { durabilityOf } from "@/lib/agent/sqlite-durability";
import { postgresStore, sqliteStore, type Store } from "../store/db";
import { migrate } from "../store/migrations";
import { apiKeyStore } from "../store/api-keys";
import type { AccountsHost } from "./account-routes";
import { accountsDatabaseFor, createAccounts } from "./accounts";
import { afterReady } from "./api-keys";
import { authSecret } from "./auth-secret";
import { guardConfigFromEnv, type GuardConfig } from "./request-guard";

/**
 * Accounts mode in front of a LangGraph server (LANGGRAPH_API_URL + THREADLINE_AUTH=accounts):
 * the threads, their checkpoints and runs live on that server, so this process opens only what
 * sign-in needs — better-auth and the API-key table over the app's database — and no graph,
 * checkpointer or run manager. Nothing is adopted at the first sign-up: this database holds no
 * threads here (local-mode threads of an embedded past stay where they were, unserved).
 */
export interface AccountsOnly extends AccountsHost {
  store: Store;
  /** Resolves once the schema (keys) and better-auth's tables exist. */
  ready: Promise<void>;
  /** Closes the database and gives up its lock (tests; a server keeps it for its life). */
  close(): Promise<void>;
}

/** Why this process holds its database's lock: the sign-in limits are counted in its memory. */
export const ACCOUNTS_ONLY_REASON =
  "Sign-in limits are counted in the web process's memory, so one web process serves one accounts database.";

export interface AccountsOnlyDeps {
  store: Store;
  secret: string;
  /** `BETTER_AUTH_URL`. */
  baseURL?: string | null;
  guard: GuardConfig;
  /** The SQLite file's group commit; none = every commit is durable when it returns (Postgres). */
  durable?: () => Promise<void>;
  /** Closes what was opened for it (the store's pool or file, the lock). */
  close?: () => Promise<void>;
}

export function createAccountsOnly(deps: AccountsOnlyDeps): AccountsOnly {
  // The registry's migrations own tl_api_keys (never edited once shipped), so they run whole: the
  // thread tables they also create stay empty; the checkpointer's tables are never made.
  const migrated = migrate(deps.store);
  const accounts = createAccounts({ database: accountsDatabaseFor(deps.store), secret: deps.secret, baseURL: deps.baseURL, allowedHosts: deps.guard.allowedHosts });
  const ready = Promise.all([migrated, accounts.ready]).then(() => undefined);
  return {
    store: deps.store,
    ready,
    auth: { guard: deps.guard, accounts: { ...accounts, ready }, keys: afterReady(migrated, apiKeyStore(deps.store)) },
    durable: deps.durable ?? (() => Promise.resolve()),
    close: async () => {
      await ready.catch(() => undefined);
      await (deps.close ?? (() => deps.store.close()))();
    },
  };
}

/**
 * Opens the app's database for accounts alone: Postgres when DATABASE_URL is set, else
 * DATA_DIR/threadline.sqlite, taking its one-process lock either way (a second web process on the
 * same accounts database stops at start with the reason).
 */
export async function openAccountsOnly(env: Readonly<Record<string, string | undefined>> = process.env): Promise<AccountsOnly> {
  const dir = dataDir(env as NodeJS.ProcessEnv);
  const common = { secret: authSecret(dir, env), baseURL: env.BETTER_AUTH_URL, guard: guardConfigFromEnv(env) };
  const databaseUrl = postgresUrl(env as NodeJS.ProcessEnv);
  if (databaseUrl) {
    const unlock = await lockPostgres(databaseUrl, ACCOUNTS_ONLY_REASON);
    const store = postgresStore(databaseUrl);
    return createAccountsOnly({
      ...common,
      store,
      close: async () => {
        await store.close();
        await unlock();
      },
    });
  }
  const { db, dbPath } = openAppSqlite(dir, ACCOUNTS_ONLY_REASON);
  const close = async () => {
    await durabilityOf(db)?.flush();
    db.close();
    fs.rmSync(`${dbPath}.lock`, { force: true });
  };
  return createAccountsOnly({ ...common, store: sqliteStore(db), durable: () => durabilityOf(db)?.flush() ?? Promise.resolve(), close });
}
