import type { z } from "zod";
import { ApiError, unprocessable } from "./errors";
import type { Api } from "./api";

export interface RouteContext {
  api: Api;
  req: Request;
  url: URL;
  params: Record<string, string>;
}
export type Handler = (ctx: RouteContext) => Promise<Response> | Response;

/** Reads and validates a JSON body. Empty body = {}; malformed JSON or wrong shapes are 422, never 5xx. */
export async function readBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  let text: string;
  try {
    text = await req.text();
  } catch {
    throw new ApiError(400, "Could not read request body");
  }
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch {
      throw unprocessable("Malformed JSON body");
    }
  }
  if (raw === null) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw unprocessable("Request body must be a JSON object");
  return schema.parse(raw);
}

/** Query string → object; repeated keys become arrays (the SDK repeats `stream_mode`). */
export function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

export function intParam(url: URL, name: string, dflt: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw == null || raw === "") return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw unprocessable(`${name} must be an integer between ${min} and ${max}`);
  return n;
}
