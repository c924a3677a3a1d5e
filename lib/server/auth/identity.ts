import { HTTPException } from "@langchain/langgraph-sdk/auth";
import type { ApiKeyStore } from "./api-keys";
import type { SessionUser } from "./accounts";
import { forwardedUserOf } from "./forwarded-identity";

export type AuthMode = "local" | "accounts";

/** `THREADLINE_AUTH`: `local` (default, one implicit user) or `accounts`. Anything else stops the server. */
export function authModeFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): AuthMode {
  const raw = env.THREADLINE_AUTH?.trim().toLowerCase() || "local";
  if (raw === "local" || raw === "accounts") return raw;
  throw new Error(`THREADLINE_AUTH must be "local" or "accounts" (got ${JSON.stringify(env.THREADLINE_AUTH)})`);
}

/** What `authenticate` returns: LangGraph's user shape. */
export interface ThreadlineUser {
  identity: string;
  display_name?: string;
  permissions: string[];
  is_authenticated?: boolean;
}

/**
 * The one implicit user of `local` mode. Its permission lets the rules skip the owner filter, so
 * a single-user install behaves exactly as before (threads made before accounts existed have no
 * owner and stay visible).
 */
export const ALL_THREADS = "threads:all";
export const LOCAL_USER: ThreadlineUser = { identity: "local", display_name: "You", permissions: [ALL_THREADS] };

/** The caller of a route that needs no identity (/info): owns nothing, may do nothing else. */
export const ANONYMOUS: ThreadlineUser = { identity: "anonymous", permissions: [], is_authenticated: false };

/** Does the request carry a key header at all (even an empty or malformed one)? */
export const sendsApiKey = (req: Request) => req.headers.has("x-api-key") || req.headers.has("authorization");

/** `x-api-key: K` or `Authorization: Bearer K`. */
export function apiKeyOf(req: Request): string | null {
  const header = req.headers.get("x-api-key")?.trim();
  if (header) return header;
  const authz = req.headers.get("authorization")?.trim() ?? "";
  const m = /^Bearer\s+(\S+)$/i.exec(authz);
  return m ? m[1] : null;
}

/** The signed-in user behind a request's session cookie (better-auth), or null. */
export type SessionLookup = (headers: Headers) => Promise<SessionUser | null>;

/**
 * Who sent a request: an API key, else a better-auth session cookie. Throws LangGraph's
 * HTTPException(401) so both servers answer the same way. A request that sends a key header is
 * judged by that key alone, never by a cookie beside it: the request guard lets key requests
 * through cross-origin (keys are not ambient), so a cookie must not ride along on that pass.
 * Without `session` (langgraph dev) only keys are accepted.
 */
export async function identify(req: Request, mode: AuthMode, keys: () => ApiKeyStore, session?: SessionLookup): Promise<ThreadlineUser> {
  if (mode === "local") return LOCAL_USER;
  // A Threadline web app in front of this server (LANGGRAPH_API_URL) names its signed-in user.
  const forwarded = forwardedUserOf(req);
  if (forwarded) return forwarded;
  if (sendsApiKey(req)) {
    const key = apiKeyOf(req);
    const found = key ? await keys().verify(key) : null;
    if (!found) throw new HTTPException(401, { message: key ? "Unknown or revoked API key" : "Malformed API key: send x-api-key: <key> or Authorization: Bearer <key>" });
    return { identity: found.userId, permissions: [] };
  }
  const user = session ? await session(req.headers) : null;
  if (!user) throw new HTTPException(401, { message: "Sign in or send an API key (x-api-key or Authorization: Bearer)" });
  return { identity: user.id, display_name: user.name || user.email, permissions: [] };
}
