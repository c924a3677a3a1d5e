import type { AuthFilters } from "../auth/enforce";
import { unprocessable } from "../http/errors";
import type { ThreadStatus } from "./queries";
import { ftsQuery } from "./search-terms";

/** Builds the WHERE / ORDER BY / extract SQL for threads/search and threads/count (all bound params). */

export type SortBy = "thread_id" | "status" | "created_at" | "updated_at" | "activity_at";

export interface ThreadQuery {
  metadata?: Record<string, unknown>;
  values?: Record<string, unknown>;
  ids?: string[];
  status?: ThreadStatus;
  /** User text for `$title_search`; null/blank = no title filter. */
  titleSearch?: string | null;
  /** `$as_of` instant (ISO): hide threads created after it; `activity_at` order is as of then. */
  asOf?: string | null;
  sortBy: SortBy;
  sortOrder: "asc" | "desc";
  limit: number;
  offset: number;
  withValues: boolean;
  /** [alias, dotted path] pairs, e.g. ["title", "values.title"]. */
  extract?: [string, string][];
  /** The auth rules' filter on thread metadata (e.g. `{ owner }`): ANDed with everything else. */
  authFilters?: AuthFilters;
}

type Sql = { sql: string; params: unknown[] };

// Keys end up inside a quoted JSON path ($."key"); refuse anything that could escape it.
const SAFE_KEY = /^[\p{L}\p{N}_\-:@ ]{1,100}$/u;

export function jsonPath(keys: string[]): string {
  for (const k of keys) if (!SAFE_KEY.test(k)) throw unprocessable(`Unsupported key in filter or path: ${JSON.stringify(k)}`);
  return "$" + keys.map((k) => `."${k}"`).join("");
}

/** Equality on one JSON member, typed, so `true` never matches the number 1 and "1" never matches 1. */
function jsonEquals(col: string, path: string, value: unknown): Sql {
  if (value === null) return { sql: `json_type(${col}, ?) = 'null'`, params: [path] };
  if (typeof value === "boolean") return { sql: `json_type(${col}, ?) = '${value}'`, params: [path] };
  if (typeof value === "number") {
    return { sql: `(json_type(${col}, ?) IN ('integer', 'real') AND json_extract(${col}, ?) = ?)`, params: [path, path, value] };
  }
  if (typeof value === "string") {
    return { sql: `(json_type(${col}, ?) = 'text' AND json_extract(${col}, ?) = ?)`, params: [path, path, value] };
  }
  return { sql: `(${col} -> ?) = json(?)`, params: [path, JSON.stringify(value)] };
}

/** One key of an auth filter, with the LangGraph server's operators (plain/`$eq` equality, `$contains` on a list). */
function authFilterSql(key: string, want: unknown): Sql {
  const path = jsonPath([key]);
  if (want && typeof want === "object") {
    const op = want as { $eq?: unknown; $contains?: unknown };
    if ("$eq" in op) return jsonEquals("t.metadata", path, op.$eq);
    if ("$contains" in op) {
      const needed = Array.isArray(op.$contains) ? op.$contains : [op.$contains];
      return {
        sql: `(json_type(t.metadata, ?) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(?) n WHERE NOT EXISTS (SELECT 1 FROM json_each(t.metadata, ?) h WHERE h.value = n.value)))`,
        params: [path, JSON.stringify(needed), path],
      };
    }
    return { sql: "1 = 1", params: [] };
  }
  return jsonEquals("t.metadata", path, want);
}

export function buildThreadFilter(q: ThreadQuery): Sql {
  const parts: string[] = ["1 = 1"];
  const params: unknown[] = [];
  const add = ({ sql, params: p }: Sql) => {
    parts.push(sql);
    params.push(...p);
  };
  for (const [k, v] of Object.entries(q.metadata ?? {})) add(jsonEquals("t.metadata", jsonPath([k]), v));
  for (const [k, v] of Object.entries(q.values ?? {})) {
    if (k === "title" && (typeof v === "string" || v === null)) add({ sql: v === null ? "t.title IS NULL" : "t.title = ?", params: v === null ? [] : [v] });
    else add(jsonEquals("t.values_json", jsonPath([k]), v));
  }
  if (q.ids) add({ sql: `t.thread_id IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(q.ids)] });
  if (q.status) add({ sql: "t.status = ?", params: [q.status] });
  if (q.titleSearch != null && q.titleSearch.trim() !== "") {
    const match = ftsQuery(q.titleSearch);
    if (match == null) add({ sql: "0 = 1", params: [] });
    else {
      add({
        sql: `t.thread_id IN (SELECT r.thread_id FROM tl_title_fts f JOIN tl_title_revisions r ON r.id = f.rowid WHERE tl_title_fts MATCH ?)`,
        params: [match],
      });
    }
  }
  if (q.asOf) add({ sql: "t.created_at <= ?", params: [q.asOf] });
  for (const [k, want] of Object.entries(q.authFilters ?? {})) add(authFilterSql(k, want));
  return { sql: parts.join(" AND "), params };
}

/** With `$as_of`, "activity_at" means the last activity at or before that instant (from the activity log). */
export function buildOrder(q: ThreadQuery): { column: string; sql: string; params: unknown[] } {
  const dir = q.sortOrder === "asc" ? "ASC" : "DESC";
  if (q.sortBy === "activity_at" && q.asOf) {
    return {
      column: `, COALESCE((SELECT MAX(a.at) FROM tl_thread_activity a WHERE a.thread_id = t.thread_id AND a.at <= ?), t.created_at) AS sort_at`,
      sql: `sort_at ${dir}, t.thread_id ${dir}`,
      params: [q.asOf],
    };
  }
  const col = `t.${q.sortBy}`;
  return { column: "", sql: q.sortBy === "thread_id" ? `${col} ${dir}` : `${col} ${dir}, t.thread_id ${dir}`, params: [] };
}

/** Extracted fields come back as JSON text in columns ex_0, ex_1, …; title/title_source come from the projection. */
export function extractColumns(extract: [string, string][] | undefined): Sql {
  if (!extract?.length) return { sql: "", params: [] };
  const cols: string[] = [];
  const params: unknown[] = [];
  extract.forEach(([, path], i) => {
    const [root, ...rest] = path.split(".");
    if (path === "values.title") cols.push(`json_quote(t.title) AS ex_${i}`);
    else if (path === "values.title_source") cols.push(`t.title_source AS ex_${i}`);
    else if ((root === "values" || root === "metadata") && rest.length) {
      cols.push(`(t.${root === "values" ? "values_json" : "metadata"} -> ?) AS ex_${i}`);
      params.push(jsonPath(rest));
    } else throw unprocessable(`extract paths must start with "values." or "metadata." (got ${JSON.stringify(path)})`);
  });
  return { sql: ", " + cols.join(", "), params };
}
