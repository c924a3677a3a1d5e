import type { z } from "zod";
import { unprocessable, zodMessage } from "./errors";
import type { Api } from "../api";
import type { AuthFilters } from "../auth/enforce";
import type { ThreadlineUser } from "../auth/identity";

export interface RouteContext {
  api: Api;
  req: Request;
  url: URL;
  params: Record<string, string>;
  /** The parsed JSON body; undefined when the request had none. */
  body: unknown;
  /** Who sent the request (the implicit local user in `local` mode). */
  user: ThreadlineUser;
  /** What the auth rules said about this route's event: a filter, and the value they may have stamped. */
  authz: { filters?: AuthFilters; value: AuthValue };
}

/** The event value handed to the auth rules (LangGraph's shape); rules may stamp `metadata`. */
export type AuthValue = { thread_id?: string; run_id?: string; metadata?: Record<string, unknown> } & Record<string, unknown>;
export type Handler = (ctx: RouteContext) => Promise<Response> | Response;

/**
 * Validates the body the router already read (capped, JSON-typed, depth-checked). No body = {};
 * wrong shapes are 422, never 5xx.
 */
export function readBody<S extends z.ZodType>(ctx: RouteContext, schema: S): z.infer<S> {
  const raw = ctx.body ?? {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw unprocessable("Request body must be a JSON object");
  return parseClientInput(schema, raw);
}

/** Checks client input against a schema: a mismatch is a 422 naming the fields. */
export function parseClientInput<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw unprocessable(zodMessage(result.error));
  return result.data;
}

export function intParam(url: URL, name: string, dflt: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw == null || raw === "") return dflt;
  const n = /^-?\d{1,12}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw unprocessable(`${name} must be an integer between ${min} and ${max}`);
  return n;
}

const durableAnswers = new WeakSet<Response>();
/**
 * An answer with nothing left to make durable: its handler made its writes durable already (a new
 * run's row, before the run started), or it wrote nothing (`readOnly`). The API sends it without
 * waiting for an fsync of what others (the runs, other requests) have written since. The router
 * marks every answer of a `readOnly` route so, errors included (routes.ts).
 */
export function answeredDurably(res: Response): Response {
  durableAnswers.add(res);
  return res;
}
export const isAnsweredDurably = (res: Response) => durableAnswers.has(res);


/** GET, HEAD and OPTIONS change nothing: no body rule, no cross-site refusal, no flush to wait for. */
export const isReadMethod = (method: string) => method === "GET" || method === "HEAD" || method === "OPTIONS";

/**
 * The one rule for acknowledging a write: what it wrote is on disk first (SQLite group commit).
 * A read acknowledges nothing, so it never waits for other requests' (or runs') writes.
 */
export async function whenDurable(req: Request, res: Response, durable: () => Promise<void>): Promise<Response> {
  if (!isReadMethod(req.method) && !isAnsweredDurably(res)) await durable();
  return res;
}
