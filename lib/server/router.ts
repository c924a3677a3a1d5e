import { bodyLimitFor, readJsonBody } from "./body";
import { ApiError, errorResponse, unprocessable } from "./errors";
import type { Handler, RouteContext } from "./http";
import type { Api } from "./api";

type Route = { method: string; pattern: string; parts: string[]; handler: Handler };

/** Every id in a path (thread, run, checkpoint, assistant): a UUID fits, and nothing that needs escaping does. */
export const PATH_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A tiny matcher: "/threads/:thread_id/runs/:run_id" style patterns, exact segment count. */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, pattern, parts: pattern.split("/").filter(Boolean), handler });
    return this;
  }

  /** The route table as [method, pattern] pairs (tests walk every route). */
  get table(): [method: string, pattern: string][] {
    return this.routes.map((r) => [r.method, r.pattern]);
  }

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
    try {
      const method = req.method === "HEAD" ? "GET" : req.method;
      const m = this.match(method, segments);
      if (!m.route) throw new ApiError(m.pathMatched ? 405 : 404, m.pathMatched ? "Method not allowed" : "Not found");
      for (const [name, value] of Object.entries(m.params)) {
        if (!PATH_ID.test(value)) throw unprocessable(`${name} must be a UUID or 1-128 letters, digits, '_' or '-'`);
      }
      // Read before the handler runs, for every route: a body a route ignores is still capped and typed.
      const body = await readJsonBody(req, bodyLimitFor(method, m.route.pattern));
      const ctx: RouteContext = { api, req, url: new URL(req.url), params: m.params, body };
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
