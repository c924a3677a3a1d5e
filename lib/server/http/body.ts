import { ApiError, unprocessable } from "./errors";
import { isReadMethod } from "./http";

/** Every request body is capped; only run creation may carry attachments, so only it gets more. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const RUN_BODY_LIMIT = 25 * 1024 * 1024;
/** Real bodies (messages with content blocks, commands) nest about 8 deep; this leaves room. */
export const MAX_JSON_DEPTH = 32;

const RUN_CREATION = new Set(["/threads/:thread_id/runs", "/threads/:thread_id/runs/stream", "/threads/:thread_id/runs/wait"]);

export function bodyLimitFor(method: string, pattern: string): number {
  return method === "POST" && RUN_CREATION.has(pattern) ? RUN_BODY_LIMIT : DEFAULT_BODY_LIMIT;
}

const mib = (n: number) => `${n / (1024 * 1024)} MiB`;
/**
 * A body at most this far past its cap is still read to its end (and dropped) before the 413:
 * the client, done sending, then reads the answer. Stopping mid-upload instead closes the
 * connection under a client still writing, which may see only a broken pipe, not why.
 */
export const READ_PAST_LIMIT = 1024 * 1024;
/**
 * Every 413 closes the connection. Past READ_PAST_LIMIT the rest of the body stays unread, so the
 * server drops the connection after answering; saying so keeps a client from sending its next
 * request down that dying keep-alive socket (and a body read to its end loses nothing by it).
 */
const tooLarge = (limit: number) =>
  new ApiError(413, `Request body is larger than the limit of ${mib(limit)} (${limit} bytes)`, { Connection: "close" });

export function isJsonType(contentType: string | null): boolean {
  const media = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return media === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(media);
}

/**
 * Reads the body as a stream and stops at `limit` bytes, so an unbounded or chunked body never
 * sits in memory whole. Content-Length is only used to refuse early: a lying one changes nothing.
 */
export async function readCapped(body: ReadableStream<Uint8Array>, declared: string | null, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  if (declared != null && Number(declared) > limit) {
    if (Number(declared) <= limit + READ_PAST_LIMIT) await dropRest(reader, limit + READ_PAST_LIMIT);
    else await reader.cancel().catch(() => undefined);
    throw tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await dropRest(reader, limit + READ_PAST_LIMIT - size);
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(400, "Could not read the request body");
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Reads and drops up to `budget` more bytes: to the body's end if it comes within them, else stops there. */
async function dropRest(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  try {
    for (let left = budget; left >= 0; ) {
      const { done, value } = await reader.read();
      if (done) return;
      left -= value.byteLength;
    }
  } catch {
    // the client went away: the 413 is the answer all the same
  }
  await reader.cancel().catch(() => undefined);
}

/** Counts bracket nesting outside strings, before JSON.parse ever sees the text. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

const notJson = () => new ApiError(415, "Request bodies must be JSON: send Content-Type: application/json");

/**
 * The header half of the body rule: a write that declares a non-JSON type is 415 even when
 * empty (a form always declares one, so "empty" must not be a way past the check).
 * `undeclaredBody: "refuse"` also refuses a body sent with no type, up front, for handlers that
 * pass the body on unread (better-auth); readJsonBody checks that case after reading instead.
 */
export function assertJsonWrite(req: Request, undeclaredBody: "refuse" | "read-first" = "read-first"): void {
  if (isReadMethod(req.method)) return;
  const type = req.headers.get("content-type");
  if (type != null && !isJsonType(type)) throw notJson();
  if (type == null && undeclaredBody === "refuse" && (Number(req.headers.get("content-length") ?? 0) > 0 || req.headers.has("transfer-encoding"))) throw notJson();
}

/**
 * The request's JSON body, or undefined when it has none (bodiless POSTs like cancel).
 * Too large → 413, a non-JSON content type → 415, bad UTF-8 / JSON / nesting → 422.
 * A write that declares a non-JSON type is 415 even when empty: a form always declares one, so
 * "empty" must not be a way past the check. A write that declares no type and sends nothing (the
 * SDK's cancel, a delete) is fine.
 */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  assertJsonWrite(req);
  const type = req.headers.get("content-type");
  if (!req.body) return undefined;
  const bytes = await readCapped(req.body, req.headers.get("content-length"), limit);
  if (bytes.byteLength === 0) return undefined;
  if (!isJsonType(type)) throw notJson();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw unprocessable("Request body is not valid UTF-8");
  }
  if (text.trim() === "") return undefined;
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) throw unprocessable(`JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unprocessable("Malformed JSON body");
  }
  // Zod and object spreads drop or misread a "__proto__" key, so a body with one would not mean
  // what it says. Only a text containing it (or a \u escape that could spell it) is walked.
  if (/__proto__|\\u/.test(text) && hasProtoKey(parsed)) throw unprocessable('JSON keys named "__proto__" are not accepted');
  return parsed;
}

function hasProtoKey(root: unknown): boolean {
  const stack = [root];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (!Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, "__proto__")) return true;
    for (const child of Object.values(v)) stack.push(child);
  }
  return false;
}
