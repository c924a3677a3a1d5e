import { sql, type RawBuilder } from "kysely";
import type { AuthFilters } from "../auth/enforce";
import { unprocessable } from "../http/errors";
import type { ThreadStatus } from "./queries";
import { ftsQuery, tsQuery } from "./search-terms";
import type { StoreDialect } from "./db";

/** Builds the WHERE / ORDER BY / extract SQL for threads/search and threads/count (Kysely `sql` fragments, all values bound). */

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

type Sql = RawBuilder<unknown>;

// Keys end up inside a quoted JSON path ($."key"); refuse anything that could escape it.
const SAFE_KEY = /^[\p{L}\p{N}_\-:@ ]{1,100}$/u;

export function jsonPath(keys: string[]): string {
  for (const k of keys) if (!SAFE_KEY.test(k)) throw unprocessable(`Unsupported key in filter or path: ${JSON.stringify(k)}`);
  return "$" + keys.map((k) => `."${k}"`).join("");
}

/** Equality on one JSON member, typed, so `true` never matches the number 1 and "1" never matches 1. */
function jsonEquals(d: StoreDialect, col: string, keys: string[], value: unknown): Sql {
  const c = sql.ref(col);
  const path = jsonPath(keys);
  // jsonb equality is typed already (1 = 1.0, but never "1" or true); a missing key is NULL, never equal.
  if (d === "postgres") return sql`(${c}::jsonb #> ${keys}::text[]) = ${JSON.stringify(value)}::jsonb`;
  if (value === null) return sql`json_type(${c}, ${path}) = 'null'`;
  if (typeof value === "boolean") return sql`json_type(${c}, ${path}) = ${sql.lit(String(value))}`;
  if (typeof value === "number") return sql`(json_type(${c}, ${path}) IN ('integer', 'real') AND json_extract(${c}, ${path}) = ${value})`;
  if (typeof value === "string") return sql`(json_type(${c}, ${path}) = 'text' AND json_extract(${c}, ${path}) = ${value})`;
  return sql`(${c} -> ${path}) = json(${JSON.stringify(value)})`;
}

/** One key of an auth filter, with the LangGraph server's operators (plain/`$eq` equality, `$contains` on a list). */
function authFilterSql(d: StoreDialect, key: string, want: unknown): Sql {
  if (want && typeof want === "object") {
    const op = want as { $eq?: unknown; $contains?: unknown };
    if ("$eq" in op) return jsonEquals(d, "t.metadata", [key], op.$eq);
    if ("$contains" in op) {
      const needed = JSON.stringify(Array.isArray(op.$contains) ? op.$contains : [op.$contains]);
      const path = jsonPath([key]);
      if (d === "postgres") {
        return sql`(jsonb_typeof(t.metadata::jsonb #> ${[key]}::text[]) = 'array' AND (t.metadata::jsonb #> ${[key]}::text[]) @> ${needed}::jsonb)`;
      }
      return sql`(json_type(t.metadata, ${path}) = 'array' AND NOT EXISTS (SELECT 1 FROM json_each(${needed}) n WHERE NOT EXISTS (SELECT 1 FROM json_each(t.metadata, ${path}) h WHERE h.value = n.value)))`;
    }
    return sql`1 = 1`;
  }
  return jsonEquals(d, "t.metadata", [key], want);
}

/** Title search: FTS5 over the revisions' terms (SQLite), or their tsvector (Postgres), same prefix-per-word meaning. */
function titleMatch(d: StoreDialect, text: string): Sql {
  if (d === "postgres") {
    const q = tsQuery(text);
    return q == null ? sql`0 = 1` : sql`t.thread_id IN (SELECT r.thread_id FROM tl_title_revisions r WHERE r.terms_tsv @@ ${q}::tsquery)`;
  }
  const match = ftsQuery(text);
  return match == null ? sql`0 = 1` : sql`t.thread_id IN (SELECT r.thread_id FROM tl_title_fts f JOIN tl_title_revisions r ON r.id = f.rowid WHERE tl_title_fts MATCH ${match})`;
}

export function buildThreadFilter(q: ThreadQuery, d: StoreDialect = "sqlite"): Sql {
  const parts: Sql[] = [sql`1 = 1`];
  const add = (s: Sql) => parts.push(s);
  for (const [k, v] of Object.entries(q.metadata ?? {})) add(jsonEquals(d, "t.metadata", [k], v));
  for (const [k, v] of Object.entries(q.values ?? {})) {
    if (k === "title" && (typeof v === "string" || v === null)) add(v === null ? sql`t.title IS NULL` : sql`t.title = ${v}`);
    else add(jsonEquals(d, "t.values_json", [k], v));
  }
  if (q.ids) add(d === "postgres" ? sql`t.thread_id = ANY(${q.ids}::text[])` : sql`t.thread_id IN (SELECT value FROM json_each(${JSON.stringify(q.ids)}))`);
  if (q.status) add(sql`t.status = ${q.status}`);
  if (q.titleSearch != null && q.titleSearch.trim() !== "") add(titleMatch(d, q.titleSearch));
  if (q.asOf) add(sql`t.created_at <= ${q.asOf}`);
  for (const [k, want] of Object.entries(q.authFilters ?? {})) add(authFilterSql(d, k, want));
  return sql.join(parts, sql` AND `);
}

/** With `$as_of`, "activity_at" means the last activity at or before that instant (from the activity log). */
export function buildOrder(q: ThreadQuery): { column: Sql; sql: Sql } {
  const dir = sql.raw(q.sortOrder === "asc" ? "ASC" : "DESC");
  if (q.sortBy === "activity_at" && q.asOf) {
    return {
      column: sql`, COALESCE((SELECT MAX(a.at) FROM tl_thread_activity a WHERE a.thread_id = t.thread_id AND a.at <= ${q.asOf}), t.created_at) AS sort_at`,
      sql: sql`sort_at ${dir}, t.thread_id ${dir}`,
    };
  }
  const col = sql.ref(`t.${q.sortBy}`);
  return { column: sql``, sql: q.sortBy === "thread_id" ? sql`${col} ${dir}` : sql`${col} ${dir}, t.thread_id ${dir}` };
}

/** Extracted fields come back as JSON text in columns ex_0, ex_1, …; title/title_source come from the projection. */
export function extractColumns(extract: [string, string][] | undefined, d: StoreDialect = "sqlite"): Sql {
  if (!extract?.length) return sql``;
  const cols = extract.map(([, path], i) => {
    const [root, ...rest] = path.split(".");
    const as = sql.raw(`ex_${i}`);
    if (path === "values.title") return d === "postgres" ? sql`to_jsonb(t.title)::text AS ${as}` : sql`json_quote(t.title) AS ${as}`;
    if (path === "values.title_source") return sql`t.title_source AS ${as}`;
    if ((root === "values" || root === "metadata") && rest.length) {
      const col = sql.ref(`t.${root === "values" ? "values_json" : "metadata"}`);
      const p = jsonPath(rest);
      return d === "postgres" ? sql`(${col}::jsonb #> ${rest}::text[])::text AS ${as}` : sql`(${col} -> ${p}) AS ${as}`;
    }
    throw unprocessable(`extract paths must start with "values." or "metadata." (got ${JSON.stringify(path)})`);
  });
  return sql`, ${sql.join(cols)}`;
}
