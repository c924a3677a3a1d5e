import { bodyLimitFor, readJsonBody } from "./body";
import { matchesFilters, type AuthEvent } from "../auth/enforce";
import { ApiError, errorResponse, notFound, unprocessable } from "./errors";
import { answeredDurably, type AuthValue, type Handler, type RouteContext } from "./http";
import type { Api } from "../api";
import { ANONYMOUS } from "../auth/identity";

/** `readOnly`: a POST that changes nothing (search, count, history): answered like a GET, waiting for no fsync. */
export type RouteOptions = { readOnly?: boolean };
export const READS: RouteOptions = { readOnly: true };

/** `event`: the LangGraph auth event this route raises; none = no identity needed (/info). */
type Route = { method: string; pattern: string; parts: string[]; handler: Handler; event?: AuthEvent } & RouteOptions;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The value LangGraph passes with an event: ids from the path, plus the body's identifying fields. */
function eventValue(params: Record<string, string>, body: unknown): AuthValue {
  const b = isObject(body) ? body : {};
  const value: AuthValue = {};
  for (const k of ["if_exists", "if_not_exists", "assistant_id", "multitask_strategy", "status", "ids", "values", "limit", "offset"]) {
    if (b[k] !== undefined) value[k] = b[k];
  }
  if (isObject(b.metadata)) value.metadata = { ...b.metadata };
  const threadId = params.thread_id ?? (typeof b.thread_id === "string" ? b.thread_id : undefined);
  if (threadId) value.thread_id = threadId;
  if (params.run_id) value.run_id = params.run_id;
  return value;
}

/** Every id in a path (thread, run, checkpoint, assistant): a UUID fits, and nothing that needs escaping does. */
export const PATH_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A tiny matcher: "/threads/:thread_id/runs/:run_id" style patterns, exact segment count. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler, event?: AuthEvent, opts: RouteOptions = {}): this {
    this.routes.push({ method, pattern, parts: pattern.split("/").filter(Boolean), handler, event, ...opts });
    return this;
  }

  /** The route table as [method, pattern] pairs (tests walk every route). */
  get table(): [method: string, pattern: string][] {
    return this.routes.map((r) => [r.method, r.pattern]);
  }

  /** Each route's auth event (tests check that every thread route raises one). */
  eventOf = (method: string, pattern: string) => this.routes.find((r) => r.method === method && r.pattern === pattern)?.event;

  private match(method: string, segments: string[]) {
    let pathMatched = false;
    for (const r of this.routes) {
      if (r.parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const ok = r.parts.every((p, i) => {
        if (p.startsWith(":")) {
          params[p.slice(1)] = segments[i];
          return true;
        }
        return p === segments[i];
      });
      if (!ok) continue;
      pathMatched = true;
      if (r.method === method) return { route: r, params };
    }
    return { route: null, pathMatched };
  }

  async handle(api: Api, req: Request, segments: string[]): Promise<Response> {
    const method = req.method === "HEAD" ? "GET" : req.method;
    const m = this.match(method, segments);
    const res = await this.answer(api, req, method, m);
    return m.route?.readOnly ? answeredDurably(res) : res;
  }

  private async answer(api: Api, req: Request, method: string, m: ReturnType<Router["match"]>): Promise<Response> {
    try {
      if (!m.route) throw new ApiError(m.pathMatched ? 405 : 404, m.pathMatched ? "Method not allowed" : "Not found");
      for (const [name, value] of Object.entries(m.params)) {
        if (!PATH_ID.test(value)) throw unprocessable(`${name} must be a UUID or 1-128 letters, digits, '_' or '-'`);
      }
      const event = m.route.event;
      // Identity first, as on the LangGraph server: without it nothing else is said about the request.
      const user = event ? await api.auth.rules.authenticate(req) : ANONYMOUS;
      // Read before the handler runs, for every route: a body a route ignores is still capped and typed.
      const body = await readJsonBody(req, bodyLimitFor(method, m.route.pattern));
      const value = eventValue(m.params, body);
      const filters = event ? await api.auth.rules.authorize(user, event, value) : undefined;
      const threadId = m.params.thread_id;
      if (threadId && filters) {
        // A thread that fails the filter does not exist for this caller: 404, never a 403 that confirms it.
        const row = await api.q.getThreadHead(threadId);
        if (row && !matchesFilters(JSON.parse(row.metadata || "{}"), filters)) throw notFound(`Thread ${threadId}`);
      }
      const ctx: RouteContext = { api, req, url: new URL(req.url), params: m.params, body, user, authz: { filters, value } };
      return await m.route.handler(ctx);
    } catch (err) {
      return errorResponse(err);
    }
  }
}

/** "/api/langgraph/threads/x" → ["threads", "x"] (decoded); works with or without the prefix. */
export function pathSegments(pathname: string, root = "/api/langgraph"): string[] {
  const rest = pathname.startsWith(root) ? pathname.slice(root.length) : pathname;
  return rest
    .split("/")
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}
