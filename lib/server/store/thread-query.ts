import type { AuthFilters } from "../auth/enforce";
import { unprocessable } from "../http/errors";
import type { ThreadStatus } from "./queries";
import type { SortBy, ThreadQuery } from "./search-sql";
import { TITLE_SEARCH_MAX } from "@/lib/title/search-words";

/** What a threads/search request means to the store: the handler's mapping, shared with tests and the bench. */

const AS_OF = "$as_of";
const LAST_FOUR_DIGIT_MS = Date.parse("9999-12-31T23:59:59.999Z");
const TITLE_SEARCH = "$title_search";

/** A validated threads/search body (http/schemas.ts, threadSearchSchema). */
export interface ThreadSearchRequest {
  metadata?: Record<string, unknown>;
  values?: Record<string, unknown>;
  ids?: string[];
  status?: ThreadStatus;
  limit?: number;
  offset?: number;
  sort_by?: SortBy;
  sort_order?: "asc" | "desc";
  select?: readonly string[];
  extract?: Record<string, string>;
}

/** Splits our `$`-prefixed extension keys out of a metadata filter (a bad one is a 422). */
export function splitMetadata(metadata: Record<string, unknown> | undefined) {
  const rest: Record<string, unknown> = {};
  let asOf: string | null = null;
  let titleSearch: string | null = null;
  for (const [k, v] of Object.entries(metadata ?? {})) {
    if (k === AS_OF) {
      if (typeof v !== "string" || Number.isNaN(Date.parse(v))) throw unprocessable(`${AS_OF} must be an ISO date-time string`);
      // Past year 9999 the ISO form grows a sign (+010000-…) and would sort below every stored
      // time: such an instant is after all of them, as the last one with four digits is.
      asOf = new Date(Math.min(Date.parse(v), LAST_FOUR_DIGIT_MS)).toISOString();
    } else if (k === TITLE_SEARCH) {
      if (typeof v !== "string") throw unprocessable(`${TITLE_SEARCH} must be a string`);
      if (v.length > TITLE_SEARCH_MAX) throw unprocessable(`${TITLE_SEARCH} must be at most ${TITLE_SEARCH_MAX} characters`);
      titleSearch = v;
    } else if (k.startsWith("$")) throw unprocessable(`Unknown filter ${k}`);
    else rest[k] = v;
  }
  return { metadata: rest, asOf, titleSearch };
}

/** The store query for a threads/search body, with the auth rules' filter (LangGraph's defaults for what is left out). */
export function threadSearchQuery(body: ThreadSearchRequest, authFilters?: AuthFilters): ThreadQuery {
  const { metadata, asOf, titleSearch } = splitMetadata(body.metadata);
  return {
    metadata,
    values: body.values,
    ids: body.ids,
    status: body.status,
    titleSearch,
    asOf,
    sortBy: body.sort_by ?? "created_at",
    sortOrder: body.sort_order ?? "desc",
    limit: body.limit ?? 10,
    offset: body.offset ?? 0,
    withValues: !body.select || body.select.includes("values"),
    select: body.select,
    extract: body.extract ? Object.entries(body.extract) : undefined,
    authFilters,
  };
}

/**
 * The web app's sidebar page request (lib/client/thread-pages.ts, fetchThreadPage: the lean
 * select, the title extract, activity order, a `$as_of` snapshot) as the store query the handler
 * makes of it; `extra` overrides fields (tests and the bench vary the page, search and filters).
 */
export function sidebarQuery(asOf: string, extra: Partial<ThreadQuery> = {}): ThreadQuery {
  const request: ThreadSearchRequest = {
    metadata: { [AS_OF]: asOf },
    sort_by: "activity_at",
    sort_order: "desc",
    limit: 50,
    offset: 0,
    select: ["thread_id", "created_at", "activity_at", "status", "metadata"],
    extract: { title: "values.title", title_source: "values.title_source" },
  };
  return { ...threadSearchQuery(request), ...extra };
}
