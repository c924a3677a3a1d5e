import { unprocessable, zodMessage } from "../http/errors";
import { threadSearchSchema } from "../http/schemas";
import { queryWords, titleMatches } from "@/lib/title/search-words";
import { splitMetadata } from "../store/thread-query";

/**
 * `$title_search` in front of a LangGraph server. Such a server filters metadata and values by
 * equality only, so it cannot find part of a title; what it does offer is its thread list. The
 * forwarder reads that list page by page in the caller's order (the sidebar's: `updated_at`,
 * newest first) with the caller's other filters, as the caller (its key and identity, so the
 * server's auth rules still decide what is seen), and keeps the threads whose current title
 * matches with the embedded index's own rule (lib/title/search-words.ts `titleMatches`).
 *
 * What that gives up, and the sidebar says so: only the first `scanLimit` threads of that order
 * are read, and only current titles match (a LangGraph server keeps no title history). A thread
 * updated while a scan is under way may move from an unread page to a read one and be missed by
 * that search (the next one finds it); one read twice that way counts once.
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

/** Whether a search or count body asks for `$title_search` (in its metadata). */
export function hasTitleSearch(body: unknown): boolean {
  const meta = (body as { metadata?: unknown } | null)?.metadata;
  return typeof meta === "object" && meta !== null && "$title_search" in meta;
}

/**
 * A threads/search body with `$title_search` in its metadata, as a scan; null when it has none
 * (the body goes upstream unchanged). Checked as the embedded API checks it: a bad body is a 422
 * there too, and `$as_of` (Threadline's snapshot paging) means nothing to a LangGraph server.
 */
export function titleScanOf(body: unknown): TitleScan | null {
  if (!hasTitleSearch(body)) return null;
  const parsed = threadSearchSchema.safeParse(body);
  if (!parsed.success) throw unprocessable(zodMessage(parsed.error));
  const { metadata, asOf, titleSearch } = splitMetadata(parsed.data.metadata);
  if (asOf) throw unprocessable("$as_of is not offered by the LangGraph server behind this app");
  const { limit = 10, offset = 0, ...rest } = parsed.data;
  const words = titleSearch?.trim() ? queryWords(titleSearch) : null;
  return { query: { ...rest, metadata }, words, limit, offset };
}

/**
 * What the scan asks each page for, whatever the caller's own `select`/`extract`: the id and the
 * title, by `extract` while the server may honour it (LangGraph Platform does), else by `values`
 * (`langgraph dev` drops `extract`, so there every page carries each thread's whole state).
 */
const LEAN = { select: ["thread_id"], extract: { title: "values.title" } };
const WITH_VALUES = { select: ["thread_id", "values"] };

/** Whether the server honours `extract`, learnt from the first scan that could tell; one per forwarder. */
export interface ExtractSupport {
  honoured?: boolean;
}

/** The title a scan row carries: `extracted` when the server honoured `extract`, else `values`. */
function titleOf(row: unknown): string {
  const r = row as { extracted?: { title?: unknown } | null; values?: { title?: unknown } | null } | null;
  const title = r?.extracted?.title ?? r?.values?.title;
  return typeof title === "string" ? title : "";
}

const idOf = (row: unknown) => ((row as { thread_id?: unknown } | null)?.thread_id as string | undefined) ?? null;
const hasTitleField = (row: unknown) => typeof row === "object" && row !== null && ("extracted" in row || "values" in row);
const isRefusal = (err: unknown) => err instanceof UpstreamAnswer && (err.response.status === 400 || err.response.status === 422);

/**
 * One scan page, lean where `extract` works. A page of rows without any title means `extract` was
 * dropped; a 400/422 to it, refused: either way the same page is asked again with `values`, and
 * the answer is kept for later scans only once that second request has worked.
 */
async function scanPage(
  filters: Record<string, unknown>,
  page: { limit: number; offset: number },
  support: ExtractSupport,
  fetchPage: (query: Record<string, unknown>) => Promise<unknown[]>,
): Promise<unknown[]> {
  if (support.honoured !== false) {
    try {
      const rows = await fetchPage({ ...filters, ...LEAN, ...page });
      if (rows.length === 0 || rows.some(hasTitleField)) {
        if (rows.some((r) => typeof r === "object" && r !== null && "extracted" in r)) support.honoured = true;
        return rows;
      }
    } catch (err) {
      if (!isRefusal(err) || support.honoured === true) throw err;
      await (err as UpstreamAnswer).response.body?.cancel();
    }
  }
  const rows = await fetchPage({ ...filters, ...WITH_VALUES, ...page });
  support.honoured = false;
  return rows;
}

/**
 * The page of matches at [offset, offset + limit) in the caller's order and shape, reading at
 * most `scanLimit` threads. `fetchPage` runs one upstream search and returns its rows (throwing
 * UpstreamAnswer otherwise). The matches are found on lean pages, then that page of them is read
 * once more with the caller's own `select`/`extract` (by `ids`), so a search answers in the same
 * shape as the list and never carries more than the caller asked for.
 */
export async function scanTitles(
  scan: TitleScan & { words: string[] },
  opts: {
    scanLimit: number;
    support: ExtractSupport;
    pageSize?: number;
    /** Shows waiting renames in rows (PendingRenames.overlayBody): after a page's titles are judged, since it adds `values`. */
    overlay?: (rows: unknown[]) => void;
  },
  fetchPage: (query: Record<string, unknown>) => Promise<unknown[]>,
): Promise<unknown[]> {
  const { words } = scan;
  const want = scan.offset + scan.limit;
  if (!words.length || scan.limit === 0) return [];
  // The caller's filters and order; its `select`/`extract` are for the page of matches only.
  const filters = Object.fromEntries(Object.entries(scan.query).filter(([k]) => k !== "select" && k !== "extract"));
  const pageSize = opts.pageSize ?? SCAN_PAGE;
  const seen = new Set<string>();
  const matched: string[] = [];
  let read = 0;
  while (read < opts.scanLimit && matched.length < want) {
    const size = Math.min(pageSize, opts.scanLimit - read);
    const rows = await scanPage(filters, { limit: size, offset: read }, opts.support, fetchPage);
    opts.overlay?.(rows);
    for (const row of rows) {
      const id = idOf(row);
      // A thread updated mid-scan moves up and shifts the rest down: the row read twice counts once.
      if (id === null || seen.has(id)) continue;
      seen.add(id);
      if (titleMatches(titleOf(row), words)) matched.push(id);
    }
    read += rows.length;
    if (rows.length < size) break;
  }
  const ids = matched.slice(scan.offset, want);
  if (!ids.length) return [];
  // The ids put the page in order, so they are read even when the caller's `select` leaves them out.
  const select = scan.query.select as string[] | undefined;
  const withoutId = select !== undefined && !select.includes("thread_id");
  const rows = await fetchPage({ ...scan.query, ...(withoutId ? { select: [...select, "thread_id"] } : {}), ids, limit: ids.length, offset: 0 });
  opts.overlay?.(rows);
  const byId = new Map(rows.map((r) => [idOf(r), r]));
  // In the scan's order. A thread deleted (or changed out of the filters) since it was read is left
  // out, so that page comes back short and a client paging by length stops there.
  const page = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  return withoutId ? page.map((r) => Object.fromEntries(Object.entries(r as object).filter(([k]) => k !== "thread_id"))) : page;
}
