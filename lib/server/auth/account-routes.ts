import { z } from "zod";
import { assertJsonWrite, DEFAULT_BODY_LIMIT, readJsonBody } from "../http/body";
import { ApiError, errorResponse, jsonResponse, zodMessage } from "../http/errors";
import { whenDurable } from "../http/http";
import { guardRequest, type GuardConfig } from "./request-guard";
import type { Accounts } from "./accounts";
import type { ApiKeyStore } from "./api-keys";

/**
 * The two HTTP surfaces of accounts mode besides the Agent Protocol: better-auth at /api/auth and
 * the API-key settings at /api/account/keys. Both are for a signed-in browser only, so both get
 * the strict guard (no cross-origin pass for key headers, no CORS) and the same body rules as the
 * API: a state-changing request is JSON (415 otherwise) and same-origin (403 otherwise).
 */
const noAccounts = () => new ApiError(404, "Accounts are off: start the server with THREADLINE_AUTH=accounts");

/**
 * What these routes need, and all they get: better-auth, the key store, the guard and the
 * database's durability. The embedded API is one; in front of a LangGraph server the app opens
 * only this (lib/server/auth/accounts-host.ts), with no graph, checkpointer or run manager.
 */
export interface AccountsHost {
  auth: {
    guard: GuardConfig;
    /** better-auth, or null when accounts are off. */
    accounts: Accounts | null;
    /** null when accounts are off and there is no database (local mode in front of a LangGraph server). */
    keys: ApiKeyStore | null;
  };
  /** Resolves once every write committed so far is on disk. */
  durable(): Promise<void>;
}

/** /api/auth/*: our guard and body rules, then better-auth's own handler. */
export async function serveAuthRoute(api: AccountsHost, req: Request): Promise<Response> {
  const refused = guardRequest(req, api.auth.guard, { keysExempt: false });
  if (refused) return refused;
  try {
    const accounts = api.auth.accounts;
    if (!accounts) throw noAccounts();
    assertJsonWrite(req, "refuse");
    // A sign-up, sign-in (its session row) or sign-out is on disk before it is answered.
    return await whenDurable(req, await accounts.handler(req), api.durable);
  } catch (err) {
    return errorResponse(err);
  }
}

const createKeyBody = z.object({ name: z.string().trim().min(1).max(60) }).strict();

/** /api/account/keys (GET list, POST create) and /api/account/keys/{id} (DELETE revoke): a session only. */
export async function serveKeySettings(api: AccountsHost, req: Request, keyId: string | null): Promise<Response> {
  return whenDurable(req, await keySettings(api, req, keyId), api.durable); // a key created or revoked is on disk first
}

async function keySettings(api: AccountsHost, req: Request, keyId: string | null): Promise<Response> {
  const refused = guardRequest(req, api.auth.guard, { keysExempt: false, origin: "always" });
  if (refused) return refused;
  try {
    const { accounts, keys } = api.auth;
    if (!accounts || !keys) throw noAccounts();
    assertJsonWrite(req, "refuse");
    // A key must not mint or revoke keys: only a signed-in person manages them.
    const user = await accounts.sessionUser(req.headers);
    if (!user) throw new ApiError(401, "Sign in to manage API keys");
    if (keyId == null && req.method === "GET") return jsonResponse({ keys: await keys.list(user.id) });
    if (keyId == null && req.method === "POST") {
      const parsed = createKeyBody.safeParse(await readJsonBody(req, DEFAULT_BODY_LIMIT));
      if (!parsed.success) throw new ApiError(422, zodMessage(parsed.error));
      const made = await keys.create(user.id, parsed.data.name);
      const listed = (await keys.list(user.id)).find((k) => k.id === made.id);
      // The key itself is in this answer only; the server keeps its hash.
      return jsonResponse({ ...listed, key: made.key }, 201);
    }
    if (keyId != null && req.method === "DELETE") {
      if (!(await keys.revoke(user.id, keyId))) throw new ApiError(404, "API key not found");
      return new Response(null, { status: 204 });
    }
    throw new ApiError(405, "Method not allowed");
  } catch (err) {
    return errorResponse(err);
  }
}
