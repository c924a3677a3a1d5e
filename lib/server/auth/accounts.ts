import type Database from "better-sqlite3";
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { getMigrations } from "better-auth/db/migration";
import { SqliteDialect, type Kysely } from "kysely";
import type { Store } from "../store/db";
import { accountKey, FailedSignIns } from "./sign-in-limit";

/**
 * `THREADLINE_AUTH=accounts`: email + password accounts with better-auth, mounted at its default
 * `/api/auth`. Its tables (user, session, account, verification) live in the same database as the
 * threads; the handle is an input, so a Postgres store later hands over its own (a Kysely instance
 * or a pg Pool) and nothing here changes.
 */
export type AccountsDatabase = NonNullable<BetterAuthOptions["database"]>;

/**
 * The app's SQLite connection for better-auth. Given as a Kysely dialect (not the raw handle) so
 * better-auth runs without interactive transactions: its BEGIN … await … COMMIT on this shared,
 * synchronous connection would otherwise swallow the API's own writes made in between (and roll
 * them back with a failed sign-up). Each better-auth statement commits on its own instead.
 */
export function sqliteAccountsDatabase(db: Database.Database): AccountsDatabase {
  return { dialect: new SqliteDialect({ database: db }), type: "sqlite" };
}

/**
 * better-auth beside the registry: the SQLite file's own connection (above), or on Postgres the
 * registry's Kysely instance (a pool: better-auth's transactions take their own connection there).
 */
export function accountsDatabaseFor(store: Store): AccountsDatabase {
  if (store.dialect === "sqlite") return sqliteAccountsDatabase(store.sqlite!);
  return { db: store.kysely as unknown as Kysely<unknown>, type: "postgres" } as AccountsDatabase;
}

/**
 * Sign-in attempts allowed per client IP in a window (better-auth's limiter, in memory). The IP
 * is read from `x-forwarded-for` unless THREADLINE_TRUSTED_PROXY_HEADER names the header the
 * deployment's proxy sets; failed sign-ins are also counted per account (sign-in-limit.ts).
 */
export const SIGN_IN_LIMIT = { window: 60, max: 5 };
export const SIGN_UP_LIMIT = { window: 60, max: 10 };

export interface AccountsConfig {
  database: AccountsDatabase;
  secret: string;
  /** `BETTER_AUTH_URL`, the public URL. An https URL makes the cookies Secure. */
  baseURL?: string | null;
  /** Hosts the request guard allows (names match any port, `name:port` only that port). */
  allowedHosts: Iterable<string>;
  /** Runs after a user row is committed (first-account adoption of local-mode threads). */
  onUserCreated?: (userId: string) => void | Promise<void>;
  /** Headers better-auth reads the client IP from; default: THREADLINE_TRUSTED_PROXY_HEADER, else x-forwarded-for. */
  ipAddressHeaders?: string[];
  /** The per-account count of failed sign-ins (a fresh one per instance by default). */
  failedSignIns?: FailedSignIns;
}

/**
 * `THREADLINE_TRUSTED_PROXY_HEADER` (e.g. `x-real-ip`, `cf-connecting-ip`; a comma list is read in
 * order): the header a reverse proxy sets to the client's address, replacing whatever the client
 * sent. Unset: better-auth's default, `x-forwarded-for`, which `next start` fills from the socket
 * only when the client sent none (so on its own it is not a per-client key; see sign-in-limit.ts).
 */
export function ipAddressHeadersFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string[] | undefined {
  const names = (env.THREADLINE_TRUSTED_PROXY_HEADER ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const n of names) {
    if (!/^[a-z0-9-]+$/.test(n)) throw new Error(`THREADLINE_TRUSTED_PROXY_HEADER must list header names (got ${JSON.stringify(n)})`);
  }
  return names.length ? names : undefined;
}

const SIGN_IN_PATH = "/sign-in/email";

/**
 * better-auth hooks that run the per-account count around its own sign-in endpoint. Hooks see the
 * endpoint's canonical path and the body as better-auth parsed it, so no spelling of the URL or
 * the body reaches a password check uncounted. better-auth's per-IP limiter runs before them.
 */
function failedSignInHooks(counter: FailedSignIns): NonNullable<BetterAuthOptions["hooks"]> {
  const keyOf = (ctx: { path?: string; body?: unknown }) =>
    ctx.path === SIGN_IN_PATH ? accountKey((ctx.body as { email?: unknown } | undefined)?.email) : null;
  return {
    before: createAuthMiddleware(async (ctx) => {
      const key = keyOf(ctx);
      if (!key) return;
      const wait = counter.begin(key);
      if (wait == null) return;
      throw new APIError("TOO_MANY_REQUESTS", { detail: `Too many failed sign-ins for this account: try again in ${wait} s` }, { "Retry-After": String(wait) });
    }),
    after: createAuthMiddleware(async (ctx) => {
      const key = keyOf(ctx);
      if (!key) return;
      const returned = ctx.context.returned;
      if (!isAPIError(returned)) counter.succeeded(key);
      else if (returned.statusCode !== 401) counter.giveBack(key); // not a wrong password (a malformed email, say)
    }),
  };
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export interface Accounts {
  /** better-auth's own handler for everything under /api/auth (after our guard). */
  handler(req: Request): Promise<Response>;
  /** The signed-in user of a request's session cookie, or null (no cookie, expired, forged). */
  sessionUser(headers: Headers): Promise<SessionUser | null>;
  /** Resolves once better-auth's tables exist (its migrations run at start). */
  ready: Promise<void>;
}

/** Host patterns for better-auth's dynamic base URL: the same hosts our guard lets in. */
function hostPatterns(hosts: Iterable<string>): string[] {
  const out: string[] = [];
  for (const h of hosts) out.push(...(/:\d+$/.test(h) ? [h] : [h, `${h}:*`]));
  return out;
}

export function accountsOptions(cfg: AccountsConfig): BetterAuthOptions {
  const baseURL = cfg.baseURL?.trim() || null;
  return {
    appName: "Threadline",
    database: cfg.database,
    secret: cfg.secret,
    // Without a public URL, the origin is the request's own (its Host already passed our allowlist).
    // The fallback serves session lookups that carry no Host (server components call in-process).
    baseURL: baseURL ?? { allowedHosts: hostPatterns(cfg.allowedHosts), protocol: "auto", fallback: "http://localhost" },
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
    // No network here, and nobody asked to be counted.
    telemetry: { enabled: false },
    // Off outside production by default: on, always, and strict on the password endpoints.
    rateLimit: {
      enabled: true,
      storage: "memory",
      window: 60,
      max: 100,
      customRules: { "/sign-in/email": SIGN_IN_LIMIT, "/sign-up/email": SIGN_UP_LIMIT },
    },
    hooks: failedSignInHooks(cfg.failedSignIns ?? new FailedSignIns()),
    advanced: {
      ipAddress: { ipAddressHeaders: cfg.ipAddressHeaders ?? ipAddressHeadersFromEnv() },
      // httpOnly + SameSite=Lax are better-auth's defaults, stated here so a change is deliberate;
      // Secure whenever the deployment is served over HTTPS (BETTER_AUTH_URL=https://…).
      useSecureCookies: baseURL?.startsWith("https://") ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    // Its messages go through ours; none of them carries a request body (tested: no password).
    logger: { level: "warn", log: (level, message) => (level === "error" ? console.error : console.warn)(`[auth] ${message}`) },
    databaseHooks: cfg.onUserCreated
      ? { user: { create: { after: async (user) => void (await cfg.onUserCreated!(user.id)) } } }
      : undefined,
  };
}

export function createAccounts(cfg: AccountsConfig): Accounts {
  const options = accountsOptions(cfg);
  const auth = betterAuth(options);
  const ready = getMigrations(options).then((m) => m.runMigrations());
  return {
    ready,
    async handler(req) {
      await ready;
      return auth.handler(req);
    },
    async sessionUser(headers) {
      await ready;
      const found = await auth.api.getSession({ headers });
      if (!found) return null;
      return { id: found.user.id, email: found.user.email, name: found.user.name };
    },
  };
}
