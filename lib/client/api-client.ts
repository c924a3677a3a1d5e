import type { Client } from "@langchain/langgraph-sdk";
import { titleFactOf, type TitleFact } from "@/lib/title";

export const API_PATH = "/api/langgraph";
export const ASSISTANT_ID = "agent";

/** The API root for this page's origin (the SDK needs an absolute URL). */
export function browserApiUrl(): string {
  return `${window.location.origin}${API_PATH}`;
}

/** The tab's one SDK client (sdk-client.ts), loaded on first use rather than with the page. */
export const loadBrowserClient = (): Promise<Client> => import("./sdk-client").then((m) => m.getBrowserClient());

/** HTTP status of an SDK or fetch error, when it has one. */
export function apiErrorStatus(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** The server's `{detail}` text (or the raw message). The SDK's HTTPError reads `HTTP <status>: <body>`. */
function apiErrorDetail(err: unknown): string {
  const raw = err instanceof Error ? err.message : typeof err === "string" ? err : "";
  const body = raw.replace(/^HTTP \d+:\s*/, "");
  try {
    const parsed: unknown = JSON.parse(body);
    const detail = (parsed as { detail?: unknown } | null)?.detail;
    if (typeof detail === "string" && detail) return detail;
  } catch {
    // not JSON: use the text as is
  }
  return body;
}

// Details may start with a machine-readable code, e.g. "title-invalid: Title must not be empty".
const CODE_PREFIX = /^([a-z]+(?:-[a-z]+)+):\s*/;

/** The machine-readable code of an API error ("title-invalid"), if the detail carries one. */
export function apiErrorCode(err: unknown): string | null {
  return CODE_PREFIX.exec(apiErrorDetail(err))?.[1] ?? null;
}

/** A human message for an API error: the server's detail without its code prefix. */
export function apiErrorMessage(err: unknown): string {
  return apiErrorDetail(err).replace(CODE_PREFIX, "") || "Something went wrong";
}

export class ApiHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** "Let AI name this": clears the pin and writes a fresh automatic title (not in the SDK). */
export async function requestTitleRegenerate(threadId: string): Promise<TitleFact> {
  const res = await fetch(`${browserApiUrl()}/threads/${encodeURIComponent(threadId)}/title/regenerate`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: "{}",
  });
  const text = await res.text();
  if (!res.ok) throw new ApiHttpError(res.status, `HTTP ${res.status}: ${text}`);
  return titleFactOf(JSON.parse(text));
}

/** DELETE that survives the page going away (used when a tab closes during an undo window). */
export function deleteThreadKeepalive(threadId: string): void {
  void fetch(`${browserApiUrl()}/threads/${encodeURIComponent(threadId)}`, { method: "DELETE", keepalive: true }).catch(
    () => undefined,
  );
}
