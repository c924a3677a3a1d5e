import { HTTPException } from "@langchain/langgraph-sdk/auth";
import { bodyLimitFor, readCapped } from "../http/body";
import { ApiError, errorResponse, jsonResponse } from "../http/errors";
import type { ThreadlineUser } from "../auth/identity";
import { guardRequest, unzippedOnLoopback, withCors } from "../auth/request-guard";
import type { RemoteConfig } from "./config";
import type { RenameJournal } from "../store/rename-journal";
import { PendingRenames, renameOf } from "./pending-renames";
import { createUpstreamFetch, type UpstreamFetch } from "./upstream";
import { hasTitleSearch, scanTitles, titleScanOf, UpstreamAnswer, type ExtractSupport, type TitleScan } from "./title-scan";

/**
 * `/api/langgraph/*` forwarded to an external LangGraph server (LANGGRAPH_API_URL). The browser
 * only ever talks to us: the same network checks run first, bodies keep their caps, the key and
 * the caller's identity are added here, streams go back unbuffered, and a run's `Location` /
 * `Content-Location` are rewritten to our root so the SDK's reconnect comes back through us.
 */
export const API_ROOT = "/api/langgraph";

/** Routes only Threadline's own API serves; a LangGraph server does not have them. */
const THREADLINE_ONLY = /^\/threads\/[^/]+\/title\/(regenerate|restore|requests)$/;
const STATE_UPDATE = /^\/threads\/([^/]+)\/state$/;
/** Reads that carry a thread's title in `values` (see PendingRenames.overlay). */
const THREAD_READ = /^\/threads\/([^/]+)(?:\/state)?$/;

const DROP_RESPONSE = new Set(["connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length", "set-cookie"]);

export interface ForwarderDeps {
  /** Who is calling, with accounts on (sessions or API keys); throws HTTPException(401) when nobody is. */
  resolveUser?: (req: Request) => Promise<ThreadlineUser>;
  fetch?: typeof fetch;
  /** Where waiting renames survive a restart (lib/server/store/rename-journal); none = memory only. */
  journal?: RenameJournal | null;
}

export interface Forwarder {
  config: RemoteConfig;
  renames: PendingRenames;
  /** For requests from the network: Host allowlist, cross-site refusal and CORS first. */
  serve(req: Request): Promise<Response>;
  /** The same without the network checks (server components, in-process). */
  handle(req: Request): Promise<Response>;
}

/** How long another state write waits for the thread's pending rename to land first. */
const RENAME_FIRST_MS = 5_000;
const settledWithin = (p: Promise<unknown>, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    void p.finally(() => (clearTimeout(timer), resolve()));
  });

export function createForwarder(config: RemoteConfig, deps: ForwarderDeps = {}): Forwarder {
  const upstream: UpstreamFetch = createUpstreamFetch(config, deps.fetch);
  const renames = new PendingRenames(upstream, deps.journal ?? null);
  const extractSupport: ExtractSupport = {};
  const resumed = renames.resume();
  if (resumed) console.log(`[remote] ${resumed} rename(s) left waiting by the previous process taken up again`);

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (!url.pathname.startsWith(API_ROOT)) return jsonResponse({ detail: "Not found" }, 404);
    const path = url.pathname.slice(API_ROOT.length) || "/";
    if (THREADLINE_ONLY.test(path)) {
      return jsonResponse({ detail: "not-offered: this is a Threadline API extension; the LangGraph server behind this app does not offer it" }, 404);
    }
    try {
      // `GET /info` needs no identity, as on the embedded API and a LangGraph server (health checks).
      const who = config.mode === "accounts" && !(req.method === "GET" && path === "/info") ? await whoIs(req) : null;
      const body = req.method === "GET" || req.method === "HEAD" || !req.body ? undefined : await readCapped(req.body, req.headers.get("content-length"), bodyLimitFor(req.method, patternOf(path)));
      const stateWrite = req.method === "POST" ? STATE_UPDATE.exec(path) : null;
      const rename = stateWrite && body ? renameOf(parseOrNull(body)) : null;
      if (rename && !rename.ok) return jsonResponse({ detail: `title-invalid: ${rename.message}` }, 422);
      if (stateWrite && rename) return await renames.rename(threadIdIn(stateWrite[1]), rename.values, who);
      // Any other state write (Stop's kept answer) goes after the thread's rename waiting to be
      // written, if one is (for at most a few seconds): two writes built on one checkpoint would
      // each drop the other's change.
      if (stateWrite) await settledWithin(renames.settled(threadIdIn(stateWrite[1])), RENAME_FIRST_MS);
      const scan = req.method === "POST" && path === "/threads/search" && body ? titleScanOf(parseOrNull(body)) : null;
      if (scan) return await searchTitles(req, scan, who);
      if (req.method === "POST" && path === "/threads/count" && body && hasTitleSearch(parseOrNull(body))) {
        return jsonResponse({ detail: "$title_search is not offered on /threads/count by the LangGraph server behind this app (search it with /threads/search)" }, 422);
      }
      const read = req.method === "GET" ? THREAD_READ.exec(path) : null;
      const readId = read && read[1] !== "search" ? threadIdIn(read[1]) : null;
      const res = await upstream(
        `${path}${url.search}`,
        { method: req.method, headers: req.headers, body: body && body.byteLength ? new Blob([body as BlobPart]) : undefined, signal: req.signal },
        who,
      );
      if (readId !== null) return passBack(await renames.overlay(res, readId), req.method);
      if (req.method === "POST" && path === "/threads/search") return passBack(await renames.overlay(res, null), req.method);
      return passBack(res, req.method);
    } catch (err) {
      if (err instanceof HTTPException) return jsonResponse({ detail: err.message }, err.status);
      if (err instanceof ApiError) return errorResponse(err);
      if ((err as { name?: string }).name === "AbortError") return new Response(null, { status: 499 });
      console.error("[remote] LangGraph server unreachable", err);
      return jsonResponse({ detail: "The LangGraph server behind this app is unreachable" }, 502);
    }
  }

  /** `$title_search`, which a LangGraph server lacks: its thread list read and matched here (title-scan.ts). */
  async function searchTitles(req: Request, scan: TitleScan, who: ThreadlineUser | null): Promise<Response> {
    const search = (query: Record<string, unknown>) =>
      upstream("/threads/search", { method: "POST", headers: req.headers, body: JSON.stringify(query), signal: req.signal }, who);
    // Blank text is no title filter: the rest of the query goes on as it stands.
    if (scan.words === null) return passBack(await renames.overlay(await search({ ...scan.query, limit: scan.limit, offset: scan.offset }), null), req.method);
    try {
      const overlay = (rows: unknown[]) => renames.overlayBody(rows, null);
      const rows = await scanTitles({ ...scan, words: scan.words }, { scanLimit: config.searchScan, support: extractSupport, overlay }, async (query) => {
        const res = await search(query);
        if (!res.ok) throw new UpstreamAnswer(res);
        const page: unknown = await res.json().catch(() => null);
        if (!Array.isArray(page)) throw new UpstreamAnswer(jsonResponse({ detail: "The LangGraph server answered a thread search with something other than a list" }, 502));
        return page;
      });
      return jsonResponse(rows);
    } catch (err) {
      if (err instanceof UpstreamAnswer) return passBack(err.response, req.method);
      throw err;
    }
  }

  async function whoIs(req: Request): Promise<ThreadlineUser> {
    if (!deps.resolveUser) throw new HTTPException(401, { message: "Sign in to use this app" });
    return deps.resolveUser(req);
  }

  /** Upstream's answer with our hop headers; the body is the upstream stream itself (no buffering). */
  function passBack(res: Response, method: string): Response {
    const headers = new Headers();
    res.headers.forEach((value, name) => {
      const n = name.toLowerCase();
      if (DROP_RESPONSE.has(n)) return;
      headers.set(name, n === "location" || n === "content-location" ? toOurRoot(value) : value);
    });
    return new Response(method === "HEAD" ? null : res.body, { status: res.status, statusText: res.statusText, headers });
  }

  /** A location on the upstream server, as a path under our API root (what the SDK resolves it against). */
  function toOurRoot(value: string): string {
    const base = new URL(config.apiUrl);
    let loc: URL;
    try {
      loc = new URL(value, `${base.origin}/`);
    } catch {
      return value;
    }
    if (loc.origin !== base.origin) return value;
    const prefix = base.pathname.replace(/\/+$/, "");
    const p = prefix && loc.pathname.startsWith(prefix) ? loc.pathname.slice(prefix.length) : loc.pathname;
    return `${p}${loc.search}`;
  }

  return {
    config,
    renames,
    handle,
    async serve(req) {
      const refused = guardRequest(req, config.guard);
      if (refused) return refused;
      return withCors(req, unzippedOnLoopback(req, await handle(req)), config.guard);
    },
  };
}

const parseOrNull = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
};

/** The route pattern the body cap is chosen by (run creation may carry attachments). */
function patternOf(path: string): string {
  if (/^\/threads\/[^/]+\/runs$/.test(path)) return "/threads/:thread_id/runs";
  const m = /^\/threads\/[^/]+\/runs\/(stream|wait)$/.exec(path);
  return m ? `/threads/:thread_id/runs/${m[1]}` : path;
}

/** A thread id from the path; a malformed %-escape is the client's mistake (400), not an upstream failure. */
function threadIdIn(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ApiError(400, "Malformed %-escape in the thread id");
  }
}
