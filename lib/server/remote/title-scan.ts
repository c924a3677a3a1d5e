import { unprocessable, zodMessage } from "../http/errors";
import { threadSearchSchema } from "../http/schemas";
import { queryWords, titleMatches } from "../store/search-terms";
import { splitMetadata } from "../store/thread-query";

/**
 * `$title_search` in front of a LangGraph server. Such a server filters metadata and values by
 * equality only, so it cannot find part of a title; what it does offer is its thread list, newest
 * first. The forwarder reads that list page by page, as the caller (its key and identity, so the
 * server's auth rules still decide what is seen), and keeps the threads whose current title
 * matches with the embedded index's own rule (search-terms.ts `titleMatches`).
 *
 * What that gives up, and the sidebar says so: only the `scanLimit` most recently updated threads
 * are read, and only current titles match (a LangGraph server keeps no title history).
 */

/** Threads read per upstream request: enough to keep round trips few, small when `values` must come too. */
export const SCAN_PAGE = 250;

/** An upstream answer that was not a page of threads: passed back to the caller as it came. */
export class UpstreamAnswer extends Error {
  constructor(readonly response: Response) {
    super(`upstream answered ${response.status}`);
  }
}

export interface TitleScan {
  /** The caller's search body for the upstream pages: `$title_search` taken out, no limit/offset yet. */
  query: Record<string, unknown>;
  /** null: blank text, no title filter (as on the embedded API); [] : nothing searchable, no match. */
  words: string[] | null;
  limit: number;
  offset: number;
}

/**
 * A threads/search body with `$title_search` in its metadata, as a scan; null when it has none
 * (the body goes upstream unchanged). Checked as the embedded API checks it: a bad body is a 422
 * there too, and `$as_of` (Threadline's snapshot paging) means nothing to a LangGraph server.
 */
export function titleScanOf(body: unknown): TitleScan | null {
  const meta = (body as { metadata?: unknown } | null)?.metadata;
  if (typeof meta !== "object" || meta === null || !("$title_search" in meta)) return null;
  const parsed = threadSearchSchema.safeParse(body);
  if (!parsed.success) throw unprocessable(zodMessage(parsed.error));
  const { metadata, asOf, titleSearch } = splitMetadata(parsed.data.metadata);
  if (asOf) throw unprocessable("$as_of is not offered by the LangGraph server behind this app");
  const { limit = 10, offset = 0, ...rest } = parsed.data;
  const words = titleSearch?.trim() ? queryWords(titleSearch) : null;
  return { query: { ...rest, metadata }, words, limit, offset };
}

/** The title a row carries: `extracted` when the server honoured `extract`, else `values`. */
function titleOf(row: unknown): string {
  const r = row as { extracted?: { title?: unknown } | null; values?: { title?: unknown } | null } | null;
  const title = r?.extracted?.title ?? r?.values?.title;
  return typeof title === "string" ? title : "";
}

/** A page whose rows carry no title at all: the server dropped `extract` and `values` was not asked for. */
const titleless = (rows: unknown[], select: unknown) =>
  Array.isArray(select) &&
  !select.includes("values") &&
  rows.some((r) => typeof r === "object" && r !== null && !("extracted" in r) && !("values" in r));

/**
 * A row read with `values` the caller did not ask for, cut back to what its `extract` named
 * (`values.title` → `values: { title }`): the caller then reads the title from `values`, as it
 * does from a server that drops `extract`, without every message of the thread.
 */
function asked(row: unknown, extract: unknown): unknown {
  const r = row as { values?: Record<string, unknown> | null };
  if (typeof r !== "object" || r === null || typeof r.values !== "object" || r.values === null) return row;
  const keys = Object.values((extract ?? {}) as Record<string, string>)
    .map((path) => /^values\.([^.]+)$/.exec(path)?.[1])
    .filter((k): k is string => k !== undefined);
  const values = r.values;
  return { ...r, values: Object.fromEntries(keys.filter((k) => k in values).map((k) => [k, values[k]])) };
}

/**
 * The page of matches at [offset, offset + limit), reading at most `scanLimit` threads.
 * `fetchPage` runs one upstream search and returns its rows (throwing UpstreamAnswer otherwise).
 */
export async function scanTitles(
  scan: TitleScan,
  scanLimit: number,
  fetchPage: (query: Record<string, unknown>) => Promise<unknown[]>,
): Promise<unknown[]> {
  if (scan.words === null) return fetchPage({ ...scan.query, limit: scan.limit, offset: scan.offset });
  const words = scan.words;
  const want = scan.offset + scan.limit;
  const found: unknown[] = [];
  if (!words.length || scan.limit === 0) return found;
  let select = scan.query.select;
  let read = 0;
  while (read < scanLimit && found.length < want) {
    const size = Math.min(SCAN_PAGE, scanLimit - read);
    const rows = await fetchPage({ ...scan.query, select, limit: size, offset: read });
    if (titleless(rows, select)) {
      // Once per scan: the same page again, with the titles in `values`.
      select = [...(select as string[]), "values"];
      continue;
    }
    const added = select !== scan.query.select;
    for (const row of rows) if (titleMatches(titleOf(row), words)) found.push(added ? asked(row, scan.query.extract) : row);
    read += rows.length;
    if (rows.length < size) break;
  }
  return found.slice(scan.offset, want);
}
