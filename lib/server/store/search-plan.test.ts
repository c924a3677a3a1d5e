import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test-harness";
import type { Queries } from "./queries";
import type { ThreadQuery } from "./search-sql";
import { sidebarQuery } from "./thread-query";

/**
 * The read side at scale (issue 10): the sidebar's first page and a broad title search must walk
 * the list-order index and stop, never read and sort every thread; and the shapes that do so must
 * return exactly the order the definition gives (checked against a naive computation).
 */

let h: Harness;
let q: Queries;
afterAll(async () => h?.close(), 120_000);

const SEEDED = 3000;
const ARCHIVED = 600;
const iso = (ms: number) => new Date(ms).toISOString();
const BASE = Date.parse("2026-06-01T00:00:00.000Z");
const seededId = (i: number) => `seed-${String(i).padStart(6, "0")}`;

/** The ThreadQuery the API builds from the web app's list request (thread-query.ts, sidebarQuery). */
const sidebar = (extra: Partial<ThreadQuery> = {}): ThreadQuery => sidebarQuery(iso(BASE + 10_000_000), extra);

beforeAll(async () => {
  h = createHarness();
  await h.api.ready;
  q = h.api.q;
  // Through the store's own writes: created 1 s apart, titled, 10 owners, every 10th active later.
  await q.transaction(async () => {
    for (let i = 0; i < SEEDED; i++) {
      await q.insertThread({
        thread_id: seededId(i),
        at: iso(BASE + i * 1000),
        metadata: JSON.stringify(i % 300 === 7 ? { owner: `user-${i % 10}`, starred: true } : { owner: `user-${i % 10}` }),
        title: `t${i} question about sourdough`,
        title_source: '{"kind":"fallback"}',
      });
    }
    for (let i = 0; i < SEEDED; i += 10) await q.setStatus(seededId(i), "idle", iso(BASE + SEEDED * 1000 + i));
    // Far back in the order: more matches for "archived" than a page, none near the head.
    for (let i = 0; i < ARCHIVED; i++) {
      await q.insertThread({ thread_id: `old-${String(i).padStart(6, "0")}`, at: iso(BASE - 1_000_000 + i * 1000), metadata: "{}", title: `Archived note ${i}`, title_source: '{"kind":"user"}' });
    }
  });
  await q.analyze();
}, 300_000);

// --- plans -------------------------------------------------------------------------------

interface PlanNode {
  op: string;
  children: PlanNode[];
}

/** EXPLAIN QUERY PLAN rows (id, parent, detail) or Postgres' JSON plan → one tree. */
function planTree(rows: unknown[]): PlanNode {
  if (h.dialect === "postgres") {
    const json = (rows[0] as Record<string, unknown>)["QUERY PLAN"];
    const top = (typeof json === "string" ? JSON.parse(json) : json) as { Plan: PgNode }[];
    const walk = (n: PgNode): PlanNode => ({
      op: [n["Node Type"], n["Index Name"] ? `using ${n["Index Name"]}` : "", n["Relation Name"] ? `on ${n["Relation Name"]}` : "", n["Index Cond"] ? `[${n["Index Cond"]}]` : ""]
        .filter(Boolean)
        .join(" "),
      children: [...(n.Plans ?? []).map(walk)],
    });
    return walk(top[0].Plan);
  }
  const byId = new Map<number, PlanNode>();
  const root: PlanNode = { op: "QUERY", children: [] };
  byId.set(0, root);
  for (const r of rows as { id: number; parent: number; detail: string }[]) {
    const node = { op: r.detail, children: [] };
    byId.set(r.id, node);
    (byId.get(r.parent) ?? root).children.push(node);
  }
  return root;
}
interface PgNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PgNode[];
}

const flat = (n: PlanNode): PlanNode[] => [n, ...n.children.flatMap(flat)];
const show = (n: PlanNode, depth = 0): string => [" ".repeat(depth * 2) + n.op, ...n.children.map((c) => show(c, depth + 1))].join("\n");

/** Every access to tl_threads (the table itself or one of its indexes). */
function threadReads(tree: PlanNode): string[] {
  if (h.dialect === "postgres") return flat(tree).filter((n) => / on tl_threads\b/.test(n.op)).map((n) => n.op);
  return flat(tree)
    .map((n) => n.op)
    .filter((op) => /^(SCAN|SEARCH) t\b/.test(op));
}

/**
 * A read of the whole table. SQLite: `SCAN t`, or any access not through the list-order indexes or
 * the primary key (e.g. the created_at index, then a sort). Postgres: a scan of tl_threads whose
 * rows feed a Sort (or hash/aggregate) without a Limit in between, unless it is the range of
 * threads active after `as_of` (`activity_at > …`, the few moved since the snapshot).
 */
function fullReads(tree: PlanNode): string[] {
  if (h.dialect === "sqlite") return threadReads(tree).filter((op) => op.startsWith("SCAN t") || !/tl_threads_activity|tl_threads_owner_activity|tl_threads_starred_activity|PRIMARY KEY|sqlite_autoindex_tl_threads_1/.test(op));
  const bad: string[] = [];
  const visit = (n: PlanNode, underSort: boolean) => {
    const range = /using tl_threads_(owner_|starred_)?activity\b.*\[.*activity_at > /;
    const movedSince = [n, ...n.children].some((c) => range.test(c.op));
    if (underSort && / on tl_threads\b/.test(n.op) && !movedSince) bad.push(n.op);
    for (const c of n.children) visit(c, n.op.startsWith("Limit") ? false : underSort || /^(Sort|Incremental Sort|Hash|HashAggregate|Aggregate)/.test(n.op));
  };
  visit(tree, false);
  return bad;
}

const orderIndex = (tree: PlanNode, name: string) => flat(tree).some((n) => n.op.includes(`INDEX ${name} `) || n.op.includes(`using ${name} `) || n.op.endsWith(`using ${name}`));

/** A read of the threads active after as_of (`activity_at > …`), the few moved since the snapshot. */
const activeSinceRange = (op: string) => /activity_at ?> ?/.test(op);

/** A walk of the list order: the activity index read other than as the active-since range. */
const orderWalks = (tree: PlanNode) =>
  flat(tree)
    .map((n) => n.op)
    .filter((op) => /tl_threads_(owner_|starred_)?activity\b/.test(op) && !activeSinceRange(op));

/**
 * The tl_threads reads each activity-log lookup (as_of's "last activity then") runs for. Postgres:
 * the lookup is a SubPlan under the scan it runs per row of. SQLite: a correlated subquery beside
 * that scan, under the same parent.
 */
function activityLookupDrivers(tree: PlanNode): string[] {
  const isLookup = (op: string) => (h.dialect === "postgres" ? / on tl_thread_activity\b|using tl_thread_activity_pkey\b/.test(op) : /\(thread_id=\? AND at<\?\)/.test(op));
  const isThreadRead = (op: string) => (h.dialect === "postgres" ? / on tl_threads\b/.test(op) : /^(SCAN|SEARCH) t\b/.test(op));
  const drivers: string[] = [];
  const visit = (n: PlanNode, ancestors: PlanNode[]) => {
    if (isLookup(n.op)) {
      const chain = [...ancestors].reverse();
      if (h.dialect === "postgres") drivers.push(chain.find((a) => isThreadRead(a.op))?.op ?? "(none)");
      else {
        const beside = chain.map((a) => a.children.filter((c) => isThreadRead(c.op))).find((reads) => reads.length);
        drivers.push(...(beside ?? []).map((c) => c.op));
      }
    }
    for (const c of n.children) visit(c, [...ancestors, n]);
  };
  visit(tree, []);
  return drivers;
}

describe("the first page reads the activity index and stops", () => {
  it("web app's first page: activity index walked, no read of every thread", async () => {
    const tree = planTree(await q.explainSearch(sidebar()));
    expect(orderIndex(tree, "tl_threads_activity"), show(tree)).toBe(true);
    expect(fullReads(tree), show(tree)).toEqual([]);
    const rows = await q.searchThreads(sidebar());
    expect(rows).toHaveLength(50);
    // Every 10th thread moved after the others were made: they lead, newest first.
    expect(rows.slice(0, 3).map((r) => r.thread_id)).toEqual([seededId(2990), seededId(2980), seededId(2970)]);
  });

  it("a later page with an as_of before recent activity: still an index walk, no full sort", async () => {
    const query = sidebar({ asOf: iso(BASE + SEEDED * 1000 + 1500), offset: 200 });
    const tree = planTree(await q.explainSearch(query));
    expect(orderIndex(tree, "tl_threads_activity"), show(tree)).toBe(true);
    expect(fullReads(tree), show(tree)).toEqual([]);
  });

  it("accounts mode's per-user first page walks the (owner, activity_at) index", async () => {
    const query = sidebar({ authFilters: { owner: "user-7" }, limit: 20 });
    const tree = planTree(await q.explainSearch(query));
    expect(orderIndex(tree, "tl_threads_owner_activity"), show(tree)).toBe(true);
    expect(fullReads(tree), show(tree)).toEqual([]);
    const rows = await q.searchThreads(query);
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => JSON.parse(r.metadata).owner === "user-7")).toBe(true);
    expect(await q.searchThreads(sidebar({ authFilters: { owner: { $eq: "user-7" } }, limit: 20 }))).toEqual(rows);
  });

  it("the starred page walks the (starred, activity_at) index, not every thread's metadata", async () => {
    const query = sidebar({ metadata: { starred: true } });
    const tree = planTree(await q.explainSearch(query));
    expect(orderIndex(tree, "tl_threads_starred_activity"), show(tree)).toBe(true);
    expect(fullReads(tree), show(tree)).toEqual([]);
    const rows = await q.searchThreads(query);
    const starred = Array.from({ length: SEEDED }, (_, i) => i).filter((i) => i % 300 === 7);
    expect(rows.map((r) => r.thread_id).sort()).toEqual(starred.map(seededId).sort());
  });

  it("a title search matching every thread walks the order index too; a narrow one starts from the matches", async () => {
    const broad = planTree(await q.explainSearch(sidebar({ titleSearch: "question sourdough" })));
    expect(orderIndex(broad, "tl_threads_activity"), show(broad)).toBe(true);
    expect(fullReads(broad), show(broad)).toEqual([]);
    expect(await q.searchThreads(sidebar({ titleSearch: "question sourdough" }))).toHaveLength(50);

    const narrow = planTree(await q.explainSearch(sidebar({ titleSearch: "t1234" })));
    expect(orderWalks(narrow), show(narrow)).toEqual([]);
    expect((await q.searchThreads(sidebar({ titleSearch: "t1234" }))).map((r) => r.thread_id)).toEqual([seededId(1234)]);
  });
});

/** Any read of the full-text index (SQLite: the FTS5 table; Postgres: the GIN index on the tsvectors). */
const textIndexReads = (tree: PlanNode) =>
  flat(tree)
    .map((n) => n.op)
    .filter((op) => (h.dialect === "sqlite" ? /\btl_title_fts\b|VIRTUAL TABLE/.test(op) : /tl_title_revisions_search/.test(op)));

describe("choosing and running a title search without reading every match", () => {
  const everyThread = sidebar({ titleSearch: "question sourdough" });

  it("a search matching every thread tests each walked thread on its own rows, never the full-text index", async () => {
    const page = planTree(await q.explainSearch(everyThread));
    expect(textIndexReads(page), show(page)).toEqual([]);
    expect(orderIndex(page, "tl_threads_activity"), show(page)).toBe(true);
    const probe = planTree((await q.explainTitleProbe(everyThread))!);
    expect(textIndexReads(probe), show(probe)).toEqual([]);
    expect(orderIndex(probe, "tl_threads_activity"), show(probe)).toBe(true);
    expect(await q.titlePlan(everyThread)).toBe("broad");
    // Newest first: the threads active last, then the rest by creation.
    expect((await q.searchThreads(everyThread)).slice(0, 2).map((r) => r.thread_id)).toEqual([seededId(2990), seededId(2980)]);
  });

  it("many matches none of which is near the head of the order start from the index, in order", async () => {
    const query = sidebar({ titleSearch: "ARCHIVED" });
    expect(await q.titlePlan(query)).toBe("narrow");
    const page = planTree(await q.explainSearch(query));
    expect(orderWalks(page), show(page)).toEqual([]);
    const rows = await q.searchThreads(query);
    expect(rows.map((r) => r.thread_id)).toEqual(Array.from({ length: 50 }, (_, k) => `old-${String(ARCHIVED - 1 - k).padStart(6, "0")}`));
    expect((await q.searchThreads(query, "broad")).map((r) => r.thread_id)).toEqual(rows.map((r) => r.thread_id));
    expect(await q.countThreads(query)).toBe(ARCHIVED);
  });

  it("sorting many matches as of the snapshot reads the activity log only for threads active since, not per match", async () => {
    const query = sidebar({ titleSearch: "ARCHIVED" });
    const tree = planTree(await q.explainSearch(query, "narrow"));
    const drivers = activityLookupDrivers(tree);
    expect(drivers.length, show(tree)).toBeGreaterThan(0);
    expect(drivers.filter((op) => !activeSinceRange(op)), show(tree)).toEqual([]);
  });

  it("a narrow search reads only the threads it found, by primary key (and the few active since as_of, by range)", async () => {
    const tree = planTree(await q.explainSearch(sidebar({ titleSearch: "t1234" }), "narrow"));
    const byKey = (n: PlanNode): boolean =>
      h.dialect === "sqlite"
        ? /^SEARCH t USING (INDEX sqlite_autoindex_tl_threads_1|PRIMARY KEY) \(thread_id=\?\)/.test(n.op)
        : /^Index (Only )?Scan using tl_threads_pkey /.test(n.op) || (n.op.startsWith("Bitmap Heap Scan") && n.children.filter((c) => c.op.startsWith("Bitmap")).every((c) => c.op.startsWith("Bitmap Index Scan using tl_threads_pkey ")));
    const reads = flat(tree).filter((n) => (h.dialect === "sqlite" ? /^(SCAN|SEARCH) t\b/.test(n.op) : / on tl_threads\b/.test(n.op)));
    expect(reads.length, show(tree)).toBeGreaterThan(0);
    expect(reads.filter((n) => !byKey(n) && !activeSinceRange(n.op)).map((n) => n.op), show(tree)).toEqual([]);
  });

  it("a narrow search finds the threads active since as_of through the activity range, not by looking every match up again", async () => {
    // As of the first page, and as of just before the later activity (300 threads active since).
    const snapshots = [{}, { asOf: iso(BASE + SEEDED * 1000 - 1) }];
    for (const query of ["t1234", "ARCHIVED"].flatMap((titleSearch) => snapshots.map((at) => sidebar({ titleSearch, ...at })))) {
      const plan = await q.explainSearch(query, "narrow");
      const tree = planTree(plan);
      const ops = flat(tree).map((n) => n.op);
      expect(ops.filter((op) => /tl_threads_activity\b/.test(op) && activeSinceRange(op)), show(tree)).toHaveLength(1);
      // Only the settled branch looks the matches up (Postgres: their sort keys, then the page's rows).
      const byKey = h.dialect === "postgres" ? /using tl_threads_pkey\b/ : /^SEARCH t USING (INDEX sqlite_autoindex_tl_threads_1|PRIMARY KEY)/;
      expect(ops.filter((op) => byKey.test(op)).length, show(tree)).toBeLessThanOrEqual(h.dialect === "postgres" ? 2 : 1);
      // Postgres tests each thread active since against the matches hashed once, not a rescan per thread.
      if (h.dialect === "postgres" && query.asOf !== sidebar().asOf) expect(JSON.stringify(plan)).toMatch(/hashed SubPlan \d+\) IS TRUE/);
    }
  });

  it("a deep page of a broad search still walks: the probe looks past offset + limit", async () => {
    const query = sidebar({ titleSearch: "question", offset: 1500 });
    expect(await q.titlePlan(query)).toBe("broad");
    expect((await q.searchThreads(query)).map((r) => r.thread_id)).toEqual((await q.searchThreads(query, "narrow")).map((r) => r.thread_id));
  });
});
