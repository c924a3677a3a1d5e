import { createHmac, timingSafeEqual } from "node:crypto";
import { HTTPException } from "@langchain/langgraph-sdk/auth";

/**
 * The caller's identity as the Next server forwards it to an external LangGraph server
 * (LANGGRAPH_API_URL mode, accounts on): a short-lived token signed with a secret both sides
 * share (`THREADLINE_FORWARD_SECRET`), verified by the same `authenticate` handler langgraph dev
 * loads. Format: `v1.<base64url(JSON {sub, name?, exp})>.<base64url(HMAC-SHA256)>`.
 *
 * The browser never sees it: only the Next server mints it, per request, for the upstream call.
 */
export const FORWARDED_IDENTITY_HEADER = "x-threadline-identity";
/** Tokens live just long enough for one request (and a slow stream's start). */
export const FORWARD_TOKEN_TTL_S = 60;
const MIN_SECRET_LENGTH = 32;

export interface ForwardedIdentity {
  identity: string;
  display_name?: string;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString("base64url");
const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(`v1.${payload}`).digest();

/** `THREADLINE_FORWARD_SECRET`, or null when unset. A short secret stops the server at start. */
export function forwardSecretFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const raw = env.THREADLINE_FORWARD_SECRET?.trim();
  if (!raw) return null;
  if (raw.length < MIN_SECRET_LENGTH) throw new Error(`THREADLINE_FORWARD_SECRET must be at least ${MIN_SECRET_LENGTH} characters`);
  return raw;
}

export function mintForwardedIdentity(who: ForwardedIdentity, secret: string, nowMs = Date.now(), ttlS = FORWARD_TOKEN_TTL_S): string {
  const claims = { sub: who.identity, ...(who.display_name ? { name: who.display_name } : {}), exp: Math.floor(nowMs / 1000) + ttlS };
  const payload = b64(JSON.stringify(claims));
  return `v1.${payload}.${b64(sign(secret, payload))}`;
}

export type VerifyResult = { ok: true; who: ForwardedIdentity } | { ok: false; reason: "malformed" | "bad-signature" | "expired" };

/** Checks the signature in constant time before reading the claims, then the expiry. */
export function verifyForwardedIdentity(token: string, secret: string, nowMs = Date.now()): VerifyResult {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[0] !== "v1" || !parts[1] || !parts[2]) return { ok: false, reason: "malformed" };
  const expected = sign(secret, parts[1]);
  const given = Buffer.from(parts[2], "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "bad-signature" };
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  const c = claims as { sub?: unknown; name?: unknown; exp?: unknown } | null;
  if (!c || typeof c.sub !== "string" || !c.sub || typeof c.exp !== "number") return { ok: false, reason: "malformed" };
  if (c.exp * 1000 <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, who: { identity: c.sub, ...(typeof c.name === "string" ? { display_name: c.name } : {}) } };
}

/**
 * The user a request's forwarded-identity header names, or null when it has none. A header that
 * is present but unsigned, tampered with, expired, or arrives where no secret is set is a 401:
 * it never falls through to another way of identifying.
 */
export function forwardedUserOf(
  req: Request,
  secret: string | null = forwardSecretFromEnv(),
): { identity: string; display_name?: string; permissions: string[] } | null {
  const token = req.headers.get(FORWARDED_IDENTITY_HEADER)?.trim();
  if (!token) return null;
  if (!secret) throw new HTTPException(401, { message: "Forwarded identities are not accepted here (THREADLINE_FORWARD_SECRET is not set)" });
  const checked = verifyForwardedIdentity(token, secret);
  if (!checked.ok) throw new HTTPException(401, { message: `Forwarded identity refused (${checked.reason})` });
  return { ...checked.who, permissions: [] };
}
