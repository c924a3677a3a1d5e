import { HTTPException } from "@langchain/langgraph-sdk/auth";
import type { ApiKeyStore } from "./api-keys";

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

/** `x-api-key: K` or `Authorization: Bearer K`. */
export function apiKeyOf(req: Request): string | null {
  const header = req.headers.get("x-api-key")?.trim();
  if (header) return header;
  const authz = req.headers.get("authorization")?.trim() ?? "";
  const m = /^Bearer\s+(\S+)$/i.exec(authz);
  return m ? m[1] : null;
}

/** Who sent a request. Throws LangGraph's HTTPException(401) so both servers answer the same way. */
export async function identify(req: Request, mode: AuthMode, keys: () => ApiKeyStore): Promise<ThreadlineUser> {
  if (mode === "local") return LOCAL_USER;
  const key = apiKeyOf(req);
  if (!key) throw new HTTPException(401, { message: "Sign in or send an API key (x-api-key or Authorization: Bearer)" });
  const found = await keys().verify(key);
  if (!found) throw new HTTPException(401, { message: "Unknown or revoked API key" });
  return { identity: found.userId, permissions: [] };
}
