/**
 * Network-edge checks for requests that come from outside the process (the API route and the
 * pages' proxy.ts), in every auth mode. The in-process path (server components calling the API
 * handler directly) never passes through here.
 *
 * - Host allowlist against DNS rebinding: a page on evil.example that re-points its name at
 *   127.0.0.1 reaches us with `Host: evil.example`, which is refused.
 * - Cross-site writes: a state-changing request that a browser sent from another origin (with a
 *   session cookie, or relying on "being on localhost") is refused. Requests with an API key are
 *   exempt: keys are never ambient, and a browser sends one cross-origin only after a preflight
 *   from an origin listed in THREADLINE_CORS_ORIGINS.
 * - Cookie writes need an Origin: a state-changing request that carries the session cookie (and
 *   no API key) must name our own origin. Browsers send Origin on every non-GET fetch and form
 *   post, so only a non-browser client (or a stripped request) lacks one, and a cookie is a
 *   browser's credential. Requests without the cookie (local mode, the SDK with a key) are unchanged.
 */
import { isReadMethod } from "../http/http";
export interface GuardConfig {
  /** Lowercase host names (no port), plus `host:port` entries that match only that port. */
  allowedHosts: Set<string>;
  corsOrigins: Set<string>;
}

const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];
const list = (raw: string | undefined) => (raw ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);

export function guardConfigFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): GuardConfig {
  const allowed = new Set(LOOPBACK);
  for (const h of list(env.THREADLINE_ALLOWED_HOSTS)) allowed.add(h);
  if (env.BETTER_AUTH_URL?.trim()) {
    try {
      allowed.add(new URL(env.BETTER_AUTH_URL.trim()).hostname.toLowerCase());
    } catch {
      throw new Error(`BETTER_AUTH_URL must be an absolute URL (got ${JSON.stringify(env.BETTER_AUTH_URL)})`);
    }
  }
  const corsOrigins = new Set<string>();
  for (const o of list(env.THREADLINE_CORS_ORIGINS)) {
    let origin: string;
    try {
      origin = new URL(o).origin;
    } catch {
      throw new Error(`THREADLINE_CORS_ORIGINS must list origins like https://app.example (got ${JSON.stringify(o)})`);
    }
    corsOrigins.add(origin);
  }
  return { allowedHosts: allowed, corsOrigins };
}

/** "Example.com:3000" → ["example.com", "example.com:3000"]; "[::1]:80" → ["[::1]", "[::1]:80"]. */
function hostForms(host: string): [string, string] {
  const h = host.toLowerCase();
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(h);
  return [m ? m[1] : h, h];
}

/** The request came in by a loopback name (a client on this machine, or a proxy that rewrote Host to one). */
export function viaLoopback(req: Request): boolean {
  const host = req.headers.get("host");
  return host != null && LOOPBACK.includes(hostForms(host)[0]);
}

/**
 * Next gzips every response the client accepts gzip for. On loopback the bytes are free and the
 * gzip is not: a 50-row sidebar page took ~0.5 ms longer with it, compressing here and inflating
 * in the client (bench/scripts/gzip-loopback.mjs). `no-transform` is what Next's compression
 * honours; a client on another machine still gets gzip. SSE streams already carry it. Both
 * the embedded API and the forwarder (LANGGRAPH_API_URL) answer through it.
 */
export function unzippedOnLoopback(req: Request, res: Response): Response {
  const cache = res.headers.get("cache-control");
  if (!viaLoopback(req) || /no-transform/i.test(cache ?? "")) return res;
  // A new Response: one passed back from fetch (the forwarder's upstream answers) has immutable headers.
  const headers = new Headers(res.headers);
  headers.set("Cache-Control", cache ? `${cache}, no-transform` : "no-transform");
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

export function hostAllowed(host: string | null, cfg: GuardConfig): boolean {
  if (!host) return false;
  const [name, full] = hostForms(host);
  return cfg.allowedHosts.has(name) || cfg.allowedHosts.has(full);
}

/** better-auth's session cookie, plain or with the `__Secure-` prefix it uses behind HTTPS. */
const SESSION_COOKIE = /(?:^|;)\s*(?:__Secure-)?better-auth\.session_token=/;
export const carriesSessionCookie = (req: Request) => SESSION_COOKIE.test(req.headers.get("cookie") ?? "");

const hasApiKey = (req: Request) => req.headers.has("x-api-key") || /^Bearer\s/i.test(req.headers.get("authorization") ?? "");

const refuse = (status: number, detail: string, headers?: HeadersInit) =>
  new Response(JSON.stringify({ detail }), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers } });

const CORS_ALLOW_HEADERS = "Content-Type, X-Api-Key, Authorization, Last-Event-ID, Prefer";
const CORS_EXPOSE_HEADERS = "Content-Location, Location, X-Threadline-Server-Time";

/**
 * null = let the request through; otherwise the answer to send (a 403, or a preflight's 204).
 * `host` is the Host header as the server received it. `keysExempt: false` (sign-in and the key
 * settings, which only a session may use): no cross-origin pass for a key header, no CORS.
 * `origin: "always"` (the key settings, for a signed-in browser only): every write must name our
 * origin, cookie or not; the default asks it of cookie-carrying writes.
 */
export interface GuardOptions {
  keysExempt?: boolean;
  origin?: "always" | "with-cookie";
}

export function guardRequest(req: Request, cfg: GuardConfig, opts: GuardOptions = {}): Response | null {
  const keysExempt = opts.keysExempt ?? true;
  const host = req.headers.get("host") ?? new URL(req.url).host;
  if (!hostAllowed(host, cfg)) {
    return refuse(403, `Host ${JSON.stringify(host)} is not allowed; add it to THREADLINE_ALLOWED_HOSTS`);
  }
  const origin = req.headers.get("origin");
  const crossOrigin = origin != null && !sameOrigin(origin, host);
  if (req.method === "OPTIONS") {
    if (!crossOrigin) return new Response(null, { status: 204 });
    if (!keysExempt) return refuse(403, `Cross-origin request from ${origin} refused`);
    if (!cfg.corsOrigins.has(origin)) return refuse(403, `Origin ${origin} is not in THREADLINE_CORS_ORIGINS`);
    return new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": "GET, POST, PATCH, PUT, DELETE",
        "Access-Control-Allow-Headers": CORS_ALLOW_HEADERS,
        "Access-Control-Max-Age": "600",
        Vary: "Origin",
      },
    });
  }
  // A browser sends a key header cross-origin only after a preflight we allowed; keys are not
  // ambient. A key from an origin we never listed is not one of our browser clients: refused.
  if (crossOrigin && keysExempt && hasApiKey(req) && !cfg.corsOrigins.has(origin)) return refuse(403, `Origin ${origin} is not in THREADLINE_CORS_ORIGINS`);
  if (isReadMethod(req.method) || (keysExempt && hasApiKey(req))) return null; // reads: the browser keeps a cross-origin answer from the page (no CORS headers)
  if (crossOrigin) return refuse(403, `Cross-origin request from ${origin} refused`);
  if (origin == null && opts.origin === "always") return refuse(403, "A same-origin Origin header is required");
  if (origin == null && carriesSessionCookie(req)) return refuse(403, "A write with a session cookie needs a same-origin Origin header");
  return null;
}

/** Adds CORS headers to an answer for a listed origin (the guard already required an API key). */
export function withCors(req: Request, res: Response, cfg: GuardConfig): Response {
  const origin = req.headers.get("origin");
  if (!origin || !cfg.corsOrigins.has(origin) || !hasApiKey(req)) return res;
  const headers = new Headers(res.headers);
  headers.set("Access-Control-Allow-Origin", origin);
  headers.set("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
  headers.append("Vary", "Origin");
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false; // "null" (sandboxed frames, file://) is never our origin
  }
}
