import { sql, type RawBuilder } from "kysely";
import type { AuthFilters } from "../auth/enforce";
import { unprocessable } from "../http/errors";
import type { ThreadStatus } from "./queries";
import { queryWords } from "@/lib/title/search-words";
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
  /** The thread object's fields the caller asked for (`select`); none = all of them. */
  select?: readonly string[];
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

/**
 * A metadata key equal to a value. `starred` equal to true reads the indexed `starred` column
 * (migration 4), which is that same test kept by the database, so the starred page is an index walk.
 */
function metadataEquals(d: StoreDialect, key: string, want: unknown): Sql {
  if (key === "starred" && want === true) return d === "postgres" ? sql`t.starred` : sql`t.starred = 1`;
  return jsonEquals(d, "t.metadata", [key], want);
}

/**
 * One key of an auth filter, with the LangGraph server's operators (plain/`$eq` equality, `$contains` on a list).
 * `owner` equal to a string (what the rules stamp and filter on) reads the indexed `owner`
 * column (migration 2: the metadata's owner when it is a string, else NULL), the same test as
 * the JSON comparison, so the per-user first page walks (owner, activity_at, thread_id).
 */
function authFilterSql(d: StoreDialect, key: string, want: unknown): Sql {
  const eq = want && typeof want === "object" && "$eq" in want ? (want as { $eq: unknown }).$eq : want;
  if (key === "owner" && typeof eq === "string") return sql`t.owner = ${eq}`;
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

/**
 * How a title search is run. "narrow" (few matches near the head of the order): start from the
 * full-text index and sort the few threads it finds. "broad": walk the list's order index and test
 * each thread's own revisions, stopping after the page is full. The per-row test never reads the
 * index (FTS5 has no cheap per-row MATCH: each one merges the whole prefix doclist; a GIN scan
 * reads every match): Postgres matches the revision's tsvector, SQLite looks for ` word` in the
 * stored folded terms with instr, which is the index's own answer (lib/title/search-words.ts,
 * search-terms.ts SEARCH_TOKENIZER). "none": nothing searchable.
 */
export type TitlePlan = "narrow" | "broad" | "none";

/**
 * Choosing the plan (queries.ts, titlePlan) costs little whichever way it goes:
 * 1. walk the first SHORT_WINDOW threads of the page's order (at least twice offset + limit) and
 *    test each: a full page among them (a query dense at the head) → "broad";
 * 2. else count the index's matches up to NARROW_MATCHES (cheap when they are few, and then
 *    few it is) → "narrow";
 * 3. else many matches, sparse at the head: walk LONG_WINDOW threads: a full page → "broad"
 *    (the walk stops within a few windows), else "narrow" (sort the matches).
 */
export const SHORT_WINDOW = 100;
export const LONG_WINDOW = 1000;
export const NARROW_MATCHES = 500;

/** The revisions matching a title search via the full-text index, as `SELECT r.thread_id` (null when nothing is searchable). */
function titleMatches(d: StoreDialect, text: string): Sql | null {
  if (d === "postgres") {
    const q = tsQuery(text);
    return q == null ? null : sql`SELECT r.thread_id FROM tl_title_revisions r WHERE r.terms_tsv @@ ${q}::tsquery`;
  }
  const match = ftsQuery(text);
  return match == null ? null : sql`SELECT r.thread_id FROM tl_title_fts f JOIN tl_title_revisions r ON r.id = f.rowid WHERE tl_title_fts MATCH ${match}`;
}

/** Does thread `t` have a revision matching the search, tested on its own rows (no index read)? Null when nothing is searchable. */
function threadMatches(d: StoreDialect, text: string): Sql | null {
  const words = queryWords(text);
  if (!words.length) return null;
  if (d === "postgres") {
    // OFFSET 0 keeps this a per-row probe: as a semi-join the planner (which guesses a prefix
    // tsquery matches a handful of rows) would drive from the GIN index, read every match and sort.
    return sql`EXISTS (SELECT 1 FROM tl_title_revisions r WHERE r.thread_id = t.thread_id AND r.terms_tsv @@ ${tsQuery(text)}::tsquery OFFSET 0)`;
  }
  // Terms are space-separated and hold no space: " word" occurs exactly when a term starts with word.
  const each = words.map((w) => sql`instr(' ' || r.terms, ${" " + w}) > 0`);
  return sql`EXISTS (SELECT 1 FROM tl_title_revisions r WHERE r.thread_id = t.thread_id AND ${sql.join(each, sql` AND `)})`;
}

/**
 * The plan probe: how many of the first `window` threads of the page's order (every filter but
 * the title; with `$as_of`, the settled branch's walk) match, counted up to offset + limit.
 * Null when nothing is searchable.
 */
export function titleProbe(q: ThreadQuery, d: StoreDialect, window: number): { sql: Sql; need: number } | null {
  const test = q.titleSearch == null ? null : threadMatches(d, q.titleSearch);
  if (!test) return null;
  const need = q.offset + q.limit;
  const dir = sql.raw(q.sortOrder === "asc" ? "ASC" : "DESC");
  const base = buildThreadFilter({ ...q, titleSearch: null }, d);
  const walk =
    q.sortBy === "activity_at" && q.asOf
      ? sql`SELECT t.thread_id FROM tl_threads t WHERE ${base} AND t.activity_at <= ${q.asOf} ORDER BY t.activity_at ${dir}, t.thread_id ${dir}`
      : sql`SELECT t.thread_id FROM tl_threads t WHERE ${base} ORDER BY ${columnOrder(q, dir)}`;
  const n = Math.max(window, 2 * need);
  return { sql: sql`SELECT COUNT(*) AS n FROM (SELECT 1 FROM (${walk} LIMIT ${n}) t WHERE ${test} LIMIT ${need}) m`, need };
}

/** Counts the index's matching revisions, at most NARROW_MATCHES of them (step 2 of the plan choice). */
export function titleMatchCount(d: StoreDialect, text: string): Sql | null {
  const m = titleMatches(d, text);
  return m && sql`SELECT COUNT(*) AS n FROM (${m} LIMIT ${NARROW_MATCHES}) m`;
}

/** Title search as a condition on `t` (current and former titles). */
function titleMatch(d: StoreDialect, text: string, plan: TitlePlan = "narrow"): Sql {
  const m = titleMatches(d, text);
  if (m == null || plan === "none") return sql`0 = 1`;
  return plan === "broad" ? threadMatches(d, text)! : sql`t.thread_id IN (${m})`;
}

/** The WHERE of a search or count; `plan` chooses how a title search is tested (see TitlePlan). */
export function buildThreadFilter(q: ThreadQuery, d: StoreDialect = "sqlite", plan?: TitlePlan, fromMatches = false): Sql {
  const parts: Sql[] = [sql`1 = 1`];
  const add = (s: Sql) => parts.push(s);
  for (const [k, v] of Object.entries(q.metadata ?? {})) add(metadataEquals(d, k, v));
  for (const [k, v] of Object.entries(q.values ?? {})) {
    // The title and its source from the projection, which holds a rename accepted during a run
    // (pin_pending) before the checkpoint does, as the thread object shows it.
    if (k === "title" && (typeof v === "string" || v === null)) add(v === null ? sql`t.title IS NULL` : sql`t.title = ${v}`);
    else if (k === "title_source") add(v === null ? sql`t.title_source IS NULL` : jsonEquals(d, "t.title_source", [], v));
    else add(jsonEquals(d, "t.values_json", [k], v));
  }
  if (q.ids) add(d === "postgres" ? sql`t.thread_id = ANY(${q.ids}::text[])` : sql`t.thread_id IN (SELECT value FROM json_each(${JSON.stringify(q.ids)}))`);
  if (q.status) add(sql`t.status = ${q.status}`);
  // A "narrow" search statement joins from the match set itself (buildSearch); counts test it here.
  if (q.titleSearch != null && q.titleSearch.trim() !== "" && !(plan === "narrow" && fromMatches)) add(titleMatch(d, q.titleSearch, plan));
  if (q.asOf) add(sql`t.created_at <= ${q.asOf}`);
  for (const [k, want] of Object.entries(q.authFilters ?? {})) add(authFilterSql(d, k, want));
  return sql.join(parts, sql` AND `);
}

const asOfActivity = (asOf: string) =>
  sql`COALESCE((SELECT MAX(a.at) FROM tl_thread_activity a WHERE a.thread_id = t.thread_id AND a.at <= ${asOf}), t.created_at)`;

/**
 * The whole threads/search statement. Ordering by `activity_at` with `$as_of` means the last
 * activity at or before that instant (activity log), which is:
 * - `t.activity_at` itself for a thread not active since then (`activity_at <= as_of`: the
 *   column and the log are written together, migration 2 fills the log for older data): branch
 *   (a) walks the (activity_at, thread_id) index in list order and stops after offset + limit;
 * - the log lookup for the few threads active since (`activity_at > as_of`, created before it):
 *   branch (b), an index range scan of the newest rows.
 * Both merged, ordered and cut: a page costs O(offset + limit + active-since), not a sort of all.
 * A "narrow" title search starts both branches from its matches instead of the whole table: (a)
 * sorts them by the column, (b) looks up the log only for those active since as_of.
 */
export function buildSearch(q: ThreadQuery, d: StoreDialect, plan: TitlePlan, cols: Sql): Sql {
  const dir = sql.raw(q.sortOrder === "asc" ? "ASC" : "DESC");
  const ex = extractColumns(q.extract, d);
  const matches = plan === "narrow" && q.titleSearch != null ? titleMatches(d, q.titleSearch) : null;
  const narrow = matches != null;
  const where = buildThreadFilter(q, d, plan, narrow);
  const byActivityAsOf = q.sortBy === "activity_at" && q.asOf;
  const page = sql`LIMIT ${q.limit} OFFSET ${q.offset}`;
  // A "narrow" search starts from its match set. Postgres: primary-key lookups of the matches (as a
  // join the planner, which guesses a prefix tsquery matches thousands, hashed the match set and
  // scanned every thread: 123 ms at 100k). SQLite: CROSS JOIN keeps the match set as the outer loop
  // (the planner would rather walk the order index).
  const inMatches = narrow && d === "postgres" ? sql` AND t.thread_id = ANY(ARRAY(${matches}))` : sql``;
  const from = narrow && d === "sqlite" ? sql`(SELECT DISTINCT thread_id FROM (${matches}) s) m CROSS JOIN tl_threads t ON t.thread_id = m.thread_id` : sql`tl_threads t`;
  // Postgres makes a row's columns before sorting, so a narrow search would build the wide ones
  // (a thread's JSON) for every match, thousands of them: it sorts the matches' keys alone, then
  // reads the page's rows by primary key.
  const rowsOf = (filter: Sql, order: Sql) =>
    d === "postgres" && narrow
      ? sql`FROM tl_threads t WHERE t.thread_id = ANY(ARRAY(SELECT t.thread_id FROM tl_threads t WHERE ${filter} ORDER BY ${order} LIMIT ${q.offset + q.limit}))`
      : sql`FROM ${from} WHERE ${filter}`;
  if (!byActivityAsOf) return sql`SELECT ${cols}${ex} ${rowsOf(sql`${where}${inMatches}`, columnOrder(q, dir))} ORDER BY ${columnOrder(q, dir)} ${page}`;
  const asOf = q.asOf!;
  // Each branch reads its rows' columns itself: a join back from the merged ids would let the
  // planner pick a hash join over the whole table (Postgres does on small tables). The log lookup
  // runs only for the few threads active since as_of, also when a narrow search sorts thousands.
  const byActivity = sql`t.activity_at ${dir}, t.thread_id ${dir}`;
  const settled = sql`SELECT ${cols}${ex}, t.activity_at AS sort_at ${rowsOf(sql`${where}${inMatches} AND t.activity_at <= ${asOf}`, byActivity)}
    ORDER BY ${byActivity} LIMIT ${q.offset + q.limit}`;
  // This branch drives from the activity_at range (the few active since) and tests each against
  // the matches. SQLite: the unary + keeps it on the range (else it drives from every match).
  // Postgres: IS TRUE keeps the IN a hashed subplan (a plain IN would be planned as a join), built
  // once and only if a thread is active since. As `= ANY(ARRAY(…))`, once thousands of threads
  // were active since, it looked every match up by primary key again (13.6 ms at 10,000 matches).
  const sinceInMatches = !narrow ? sql`` : d === "postgres" ? sql` AND (t.thread_id IN (${matches})) IS TRUE` : sql` AND +t.thread_id IN (${matches})`;
  const movedSince = sql`SELECT ${cols}${ex}, ${asOfActivity(asOf)} AS sort_at FROM tl_threads t WHERE ${where}${sinceInMatches} AND t.activity_at > ${asOf}`;
  return sql`SELECT * FROM (${settled}) a UNION ALL ${movedSince} ORDER BY sort_at ${dir}, thread_id ${dir} ${page}`;
}

function columnOrder(q: ThreadQuery, dir: Sql): Sql {
  const col = sql.ref(`t.${q.sortBy}`);
  return q.sortBy === "thread_id" ? sql`${col} ${dir}` : sql`${col} ${dir}, t.thread_id ${dir}`;
}

/**
 * A column holding JSON text as a JSON value. SQLite: text that is not JSON (never written by the
 * app; a hand-edited row) is NULL, as Registry.threadJson reads it, instead of failing the page.
 * Postgres has no cheap test for that before version 16 (API.md says so).
 */
function jsonOfColumn(column: string, d: StoreDialect): Sql {
  const col = sql.ref(column);
  return d === "postgres" ? sql`${col}::json` : sql`CASE WHEN json_valid(${col}) THEN json(${col}) END`;
}

/**
 * The thread's values, with a rename accepted during a run (`pin_pending`) in place of the title
 * the run's checkpoint still holds, as Registry.threadJson shows them: the pin is the thread's
 * title from the moment it is accepted; the checkpoint gets it when the run ends.
 */
function valuesWithPendingPin(d: StoreDialect): Sql {
  const values = jsonOfColumn("t.values_json", d);
  if (d === "postgres") {
    // The pin's keys in place of the values' own, whatever their order (a NULL title is JSON null).
    return sql`CASE WHEN t.pin_pending = 1 AND json_typeof(t.values_json::json) = 'object'
      THEN (SELECT json_object_agg(kv.k, kv.v) FROM (
        SELECT e.key AS k, e.value AS v FROM json_each(t.values_json::json) AS e WHERE e.key NOT IN ('title', 'title_source')
        UNION ALL SELECT 'title', COALESCE(to_json(t.title), 'null'::json)
        UNION ALL SELECT 'title_source', COALESCE(t.title_source::json, 'null'::json)) AS kv)
      ELSE ${values} END`;
  }
  return sql`CASE WHEN t.pin_pending = 1 AND json_valid(t.values_json) AND json_type(t.values_json) = 'object'
    THEN json_set(t.values_json, '$.title', t.title, '$.title_source', ${jsonOfColumn("t.title_source", d)})
    ELSE ${values} END`;
}

/** One `extract` path as a JSON-valued expression (NULL when the path is missing); title/title_source come from the projection. */
function extractValue(path: string, d: StoreDialect, as: "text" | "json"): Sql {
  const [root, ...keys] = path.split(".");
  let rest = keys;
  const pg = d === "postgres";
  if (path === "values.title") {
    if (as === "json") return pg ? sql`to_json(t.title)` : sql`t.title`;
    return pg ? sql`to_jsonb(t.title)::text` : sql`json_quote(t.title)`;
  }
  if (path === "values.title_source") return as === "text" ? sql`t.title_source` : jsonOfColumn("t.title_source", d);
  if ((root === "values" || root === "metadata") && rest.length) {
    // Inside the title's source: the projection's copy too (values.title_source.kind).
    const inSource = root === "values" && rest[0] === "title_source";
    const col = sql.ref(inSource ? "t.title_source" : `t.${root === "values" ? "values_json" : "metadata"}`);
    if (inSource) rest = rest.slice(1);
    const p = jsonPath(rest);
    if (pg) return as === "json" ? sql`(${col}::jsonb #> ${rest}::text[])` : sql`(${col}::jsonb #> ${rest}::text[])::text`;
    return as === "json" ? sql`json(${col} -> ${p})` : sql`(${col} -> ${p})`;
  }
  throw unprocessable(`extract paths must start with "values." or "metadata." (got ${JSON.stringify(path)})`);
}

/** Extracted fields come back as JSON text in columns ex_0, ex_1, … */
export function extractColumns(extract: [string, string][] | undefined, d: StoreDialect = "sqlite"): Sql {
  if (!extract?.length) return sql``;
  return sql`, ${sql.join(extract.map(([, path], i) => sql`${extractValue(path, d, "text")} AS ${sql.raw(`ex_${i}`)}`))}`;
}

/** The keys of a thread object, in Registry.threadJson's order. */
const THREAD_OBJECT_KEYS = ["thread_id", "created_at", "updated_at", "activity_at", "metadata", "status", "config", "context", "values", "interrupts"] as const;

/**
 * Each thread of a search as the JSON text of its Agent Protocol object (column `j`), made by the
 * database: the object Registry.threadJson makes from a row, key for key (thread-json.test.ts
 * holds the two equal). Why: a sidebar page of 50 rows cost more to hand over to JS as ~500 column
 * values, rebuild as objects and stringify again than the query itself.
 */
export function threadJsonColumn(q: Pick<ThreadQuery, "select" | "extract">, d: StoreDialect): Sql {
  const pg = d === "postgres";
  const empty = pg ? sql`'{}'::json` : sql`json_object()`;
  const orEmpty = (v: Sql) => sql`COALESCE(${v}, ${empty})`;
  const fields: Record<(typeof THREAD_OBJECT_KEYS)[number], Sql> = {
    thread_id: sql.ref("t.thread_id"),
    created_at: sql.ref("t.created_at"),
    updated_at: sql.ref("t.updated_at"),
    activity_at: sql.ref("t.activity_at"),
    metadata: orEmpty(jsonOfColumn("t.metadata", d)),
    status: sql.ref("t.status"),
    config: empty,
    context: empty,
    values: valuesWithPendingPin(d),
    interrupts: orEmpty(jsonOfColumn("t.interrupts_json", d)),
  };
  const keys = q.select ? [...new Set(q.select)].filter((k): k is keyof typeof fields => k in fields) : THREAD_OBJECT_KEYS;
  const pairs = keys.map((k) => [k, fields[k]] as const);
  const object = (entries: (readonly [string, Sql])[]) => {
    const args = entries.map(([k, v]) => sql`${pg ? sql`${k}::text` : sql`${k}`}, ${v}`);
    return pg ? sql`json_build_object(${sql.join(args)})` : sql`json_object(${sql.join(args)})`;
  };
  const extracted = q.extract?.length ? [["extracted", object(q.extract.map(([alias, path]) => [alias, extractValue(path, d, "json")]))] as const] : [];
  const whole = object([...pairs, ...extracted]);
  return pg ? sql`${whole}::text` : whole;
}
