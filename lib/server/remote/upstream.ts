import { FORWARDED_IDENTITY_HEADER, mintForwardedIdentity } from "../auth/forwarded-identity";
import type { ThreadlineUser } from "../auth/identity";
import type { RemoteConfig } from "./config";

/**
 * One request to the external LangGraph server, carrying what only the Next server holds: the
 * LangSmith key and, with accounts on, a freshly minted token naming the caller. Whatever the
 * browser sent in these headers is dropped first, so it can neither leak nor forge them.
 */
export type UpstreamFetch = (path: string, init: RequestInit, who: ThreadlineUser | null) => Promise<Response>;

/** Request headers never passed on: hop-by-hop, our own cookies, credentials we replace. */
const DROP_REQUEST = new Set([
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "upgrade",
  "cookie",
  "x-api-key",
  "authorization",
  FORWARDED_IDENTITY_HEADER,
  // Asked for plain bytes: the stream goes through unchanged and nobody has to re-compress.
  "accept-encoding",
  "origin",
  "referer",
]);

export function upstreamHeaders(from: Headers, cfg: RemoteConfig, who: ThreadlineUser | null): Headers {
  const out = new Headers();
  from.forEach((value, name) => {
    if (!DROP_REQUEST.has(name.toLowerCase()) && !name.toLowerCase().startsWith("x-forwarded-")) out.set(name, value);
  });
  out.set("accept-encoding", "identity");
  if (cfg.apiKey) out.set("x-api-key", cfg.apiKey);
  if (who && cfg.secret) out.set(FORWARDED_IDENTITY_HEADER, mintForwardedIdentity(who, cfg.secret));
  return out;
}

export function createUpstreamFetch(cfg: RemoteConfig, fetchImpl: typeof fetch = fetch): UpstreamFetch {
  return (path, init, who) =>
    fetchImpl(`${cfg.apiUrl}${path}`, {
      ...init,
      headers: upstreamHeaders(new Headers(init.headers), cfg, who),
      redirect: "manual",
    });
}
