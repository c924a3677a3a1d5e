/**
 * The browser side of accounts mode: better-auth's email + password endpoints and our API-key
 * settings, as plain same-origin JSON requests (the cookies are httpOnly; the browser sends them).
 */
import { forgetDraftFiles } from "./draft-files";
import { disownKept, forgetKept, safeLocalStorage, safeSessionStorage } from "./storage-owner";

export interface ApiKeyInfo {
  id: string;
  name: string;
  created_at: string;
  last_four: string;
}

export class AccountError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function postJson(path: string, body: unknown): Promise<Response> {
  return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" });
}

/**
 * "Too many attempts" with the wait the server asked for (`Retry-After`, in seconds): the per-IP
 * limiter's is about a minute, the per-account one's up to a quarter of an hour.
 */
export function tooManyAttemptsText(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  const minutes = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : 1;
  return `Too many attempts. Wait ${minutes === 1 ? "a minute" : `${minutes} minutes`}, then try again.`;
}

/** A sentence for people, never the server's raw text for a failure we did not foresee. */
async function failure(res: Response, what: "sign-in" | "sign-up" | "keys"): Promise<AccountError> {
  const body = (await res.json().catch(() => null)) as { message?: string; detail?: string } | null;
  if (res.status === 429) return new AccountError(429, tooManyAttemptsText(res.headers.get("retry-after")));
  if (what === "sign-in" && (res.status === 401 || res.status === 403)) return new AccountError(res.status, "Wrong email or password.");
  if (res.status >= 500 || !(body?.message || body?.detail)) return new AccountError(res.status, "Something went wrong. Try again.");
  return new AccountError(res.status, (body.message ?? body.detail)!);
}

export async function signIn(email: string, password: string): Promise<void> {
  const res = await postJson("/api/auth/sign-in/email", { email, password });
  if (!res.ok) throw await failure(res, "sign-in");
}

export async function signUp(name: string, email: string, password: string): Promise<void> {
  const res = await postJson("/api/auth/sign-up/email", { name, email, password });
  if (!res.ok) throw await failure(res, "sign-up");
}

/**
 * Ends the session and forgets this person's drafts (their text and files) and followed runs in
 * this browser. Throws, keeping everything, when the server did not end the session (the person
 * is still signed in: their drafts stay theirs). Once it has, nothing of the clean-up may fail the
 * sign-out: a storage that refuses writes or reads is cleaned as far as it lets us, and the page
 * still leaves.
 */
export async function signOut(): Promise<void> {
  const res = await postJson("/api/auth/sign-out", {});
  if (res.status === 429) throw new AccountError(429, tooManyAttemptsText(res.headers.get("retry-after")));
  if (!res.ok) throw new AccountError(res.status, "Could not sign out. Check your connection and try again.");
  // First, so the person's other open tabs reload and stop writing (use-kept-owner.ts).
  disownKept();
  try {
    forgetKept([safeLocalStorage(), safeSessionStorage()].filter((s): s is Storage => s !== null));
  } catch {
    // a storage that throws on reads keeps what it had; the owner mark above already stops its use
  }
  await forgetDraftFiles();
}

/** Only a path on this site (a `next` parameter must not send anyone elsewhere). */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}

export async function listKeys(): Promise<ApiKeyInfo[]> {
  const res = await fetch("/api/account/keys", { credentials: "same-origin" });
  if (!res.ok) throw await failure(res, "keys");
  return ((await res.json()) as { keys: ApiKeyInfo[] }).keys;
}

export async function createKey(name: string): Promise<ApiKeyInfo & { key: string }> {
  const res = await postJson("/api/account/keys", { name });
  if (!res.ok) throw await failure(res, "keys");
  return res.json();
}

export async function revokeKey(id: string): Promise<void> {
  const res = await fetch(`/api/account/keys/${encodeURIComponent(id)}`, { method: "DELETE", credentials: "same-origin" });
  if (!res.ok && res.status !== 404) throw await failure(res, "keys");
}
