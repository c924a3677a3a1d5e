import { ZodError } from "zod";

/**
 * An error whose status and message are meant for the client. Anything else that escapes a
 * handler is a bug and becomes a 500 (logged); client mistakes must never take that path,
 * because the SDK retries 5xx answers (even on run creation).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers (e.g. `Connection: close` when the body was left unread). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const unprocessable = (message: string) => new ApiError(422, message);
export const conflict = (message: string) => new ApiError(409, message);

export function jsonResponse(body: unknown, status = 200, headers?: HeadersInit): Response {
  return jsonTextResponse(JSON.stringify(body ?? null), status, headers);
}

/** A body that is JSON text already (a search page the database wrote). */
export function jsonTextResponse(text: string, status = 200, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json");
  h.set("Cache-Control", "no-store");
  return new Response(text, { status, headers: h });
}

/** A client-shape failure, worded from the schema's issues (only for schemas that check client input). */
export function zodMessage(err: ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`)
    .join("; ");
}

/** Maps any thrown value to `{ detail }`; only unknown failures are 500. */
export function errorResponse(err: unknown): Response {
  if (err instanceof ApiError) return jsonResponse({ detail: err.message }, err.status, err.headers);
  // A ZodError that reaches here came from inside (e.g. the graph's own state schema), not from a
  // check of the client's input (those throw 422 ApiErrors): it is our failure, never told as theirs.
  console.error("[api] unexpected error", err instanceof ZodError ? zodMessage(err) : err);
  return jsonResponse({ detail: "Internal server error" }, 500);
}
