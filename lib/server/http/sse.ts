/** One buffered stream event; `id` is the run-local sequence number the client echoes back. */
export interface RunEvent {
  id: number;
  event: string;
  /** Already-serialised JSON, so fan-out to many subscribers encodes once. */
  data: string;
}

const encoder = new TextEncoder();

/** `data:` lines must not contain raw newlines; JSON.stringify never emits them, but be safe. */
export function encodeEvent(e: RunEvent): Uint8Array {
  const data = e.data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join("\n");
  return encoder.encode(`event: ${e.event}\n${data}\nid: ${e.id}\n\n`);
}

/** A comment line: keeps proxies from closing an idle stream and lets the SDK detect half-open sockets. */
export const HEARTBEAT = encoder.encode(": heartbeat\n\n");

export function sseHeaders(extra?: Record<string, string>): Headers {
  const h = new Headers({
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",
  });
  for (const [k, v] of Object.entries(extra ?? {})) h.set(k, v);
  return h;
}

/**
 * Parses `Last-Event-ID`. Our ids are decimal integers; "-1", absent, empty or anything else (a
 * hex or exponent form included) all mean "from the start" (useStream sends "-1" when it rejoins
 * a run after a reload).
 */
export function parseLastEventId(raw: string | null): number {
  const text = raw?.trim() ?? "";
  return /^(?:-1|\d{1,15})$/.test(text) ? Number(text) : -1;
}
