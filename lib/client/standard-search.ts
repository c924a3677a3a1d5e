import type { Client, Thread, ThreadSelectField } from "@langchain/langgraph-sdk";

type SearchQuery = NonNullable<Parameters<Client["threads"]["search"]>[0]>;

/** The title as the list needs it; the same paths as Threadline's own lean list. */
export const LEAN_EXTRACT = { title: "values.title", title_source: "values.title_source" } as const;

/** A LangGraph server's thread fields the list reads; `values` only when `extract` is not honoured. */
export const STANDARD_LEAN_SELECT = ["thread_id", "created_at", "updated_at", "status", "metadata"] as const;
export const STANDARD_SELECT = [...STANDARD_LEAN_SELECT, "values"] as const;

/**
 * Whether the LangGraph server honours `extract`. LangGraph Platform does, so a page carries only
 * the titles, not every message of 50 conversations; `langgraph dev` 1.5.1 drops the field without
 * a word, and a stricter server may refuse it. Learnt from the first page with threads in it and
 * kept for the page's life (one process talks to one server); undefined means "not known yet".
 */
let extractHonoured: boolean | undefined;

export function standardExtractSupport(): boolean | undefined {
  return extractHonoured;
}

/** Test-only: forget what was learnt, as a new page load would. */
export function resetStandardExtractSupport(): void {
  extractHonoured = undefined;
}

// A server that validates strictly answers an unknown field with 400 or 422.
const isRefusal = (err: unknown) =>
  typeof err === "object" && err !== null && [400, 422].includes((err as { status?: unknown }).status as number);

/**
 * `threads.search` on a LangGraph server, asking for the title with `extract` while that may work
 * and for the whole `values` once the server has shown it does not.
 */
export async function searchStandardThreads(
  client: Client,
  query: Omit<SearchQuery, "select" | "extract">,
): Promise<Thread[]> {
  let refused = false;
  if (extractHonoured !== false) {
    try {
      const threads = await client.threads.search({
        ...query,
        select: [...STANDARD_LEAN_SELECT] as ThreadSelectField[],
        extract: { ...LEAN_EXTRACT },
      });
      if (threads.length === 0) return threads;
      extractHonoured = threads.some((t) => "extracted" in t);
      // A server that ignored `select` as well sent `values`: nothing to ask again.
      if (extractHonoured || threads.every((t) => "values" in t)) return threads;
    } catch (err) {
      if (!isRefusal(err)) throw err;
      refused = true;
    }
  }
  const threads = await client.threads.search({ ...query, select: [...STANDARD_SELECT] as ThreadSelectField[] });
  // Only now is the refusal known to be about `extract`: the same query without it was taken.
  if (refused) extractHonoured = false;
  return threads;
}
