import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test-harness";
import type { Queries } from "./queries";
import type { ThreadQuery } from "./search-sql";

/**
 * The search statement's page (search-sql.ts, buildSearch: the two-branch `$as_of` shape and both
 * title-search plans) against the definition computed naively here, over random activity logs,
 * titles, `$as_of` instants, pages and directions, written through the store's own functions.
 */

let h: Harness;
let q: Queries;
beforeAll(async () => {
  h = createHarness();
  await h.api.ready;
  q = h.api.q;
});
afterAll(async () => h?.close(), 120_000);

const BASE = Date.parse("2026-03-01T00:00:00.000Z");
const at = (unit: number) => new Date(BASE + unit * 1000).toISOString();
const TITLES = ["alpha beta", "beta gamma", "delta", "Alpine gamma", "gamma ray"];
const SEARCHES = ["al", "beta", "gam", "alpha beta", "zz", "ALP"];

interface Spec {
  created: number;
  later: number[];
  titles: string[];
}

const threadSpec = fc.record({
  created: fc.integer({ min: 0, max: 40 }),
  later: fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }),
  titles: fc.array(fc.constantFrom(...TITLES), { maxLength: 2 }),
});

/** The definition: created by `as_of`; ordered by the last activity at or before it (creation counts), then id. */
function naive(specs: Spec[], query: ThreadQuery): string[] {
  const asOf = query.asOf!;
  const words = (query.titleSearch ?? "").toLowerCase().split(" ").filter(Boolean);
  const matches = (s: Spec) =>
    !words.length || s.titles.some((t) => words.every((w) => t.toLowerCase().split(" ").some((tw) => tw.startsWith(w))));
  const rows = specs
    .map((s, i) => {
      const instants = [s.created, ...s.later.map((d) => s.created + d)].map(at).filter((x) => x <= asOf);
      return { id: `th-${String(i).padStart(2, "0")}`, created: at(s.created), sortAt: instants.sort().at(-1) ?? at(s.created), s };
    })
    .filter((r) => r.created <= asOf && matches(r.s));
  const sign = query.sortOrder === "asc" ? 1 : -1;
  rows.sort((a, b) => sign * (a.sortAt < b.sortAt ? -1 : a.sortAt > b.sortAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.slice(query.offset, query.offset + query.limit).map((r) => r.id);
}

async function write(specs: Spec[]) {
  await q.transaction(async () => {
    for (const [i, s] of specs.entries()) {
      const id = `th-${String(i).padStart(2, "0")}`;
      await q.insertThread({ thread_id: id, at: at(s.created), metadata: "{}", title: s.titles[0] ?? null, title_source: '{"kind":"user"}' });
      for (const t of s.titles.slice(1)) await q.setTitle(id, t, '{"kind":"user"}', false, at(s.created));
      for (const d of [...s.later].sort((a, b) => a - b)) await q.setStatus(id, "idle", at(s.created + d));
    }
  });
}

describe("search order as of an instant, against the definition", () => {
  it("every page, direction, as_of and title plan gives the naive page", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(threadSpec, { maxLength: 10 }),
        fc.integer({ min: -1, max: 85 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom("asc" as const, "desc" as const),
        fc.option(fc.constantFrom(...SEARCHES), { nil: undefined }),
        async (specs, asOfUnit, offset, limit, sortOrder, titleSearch) => {
          await write(specs);
          try {
            const query: ThreadQuery = { asOf: at(asOfUnit), sortBy: "activity_at", sortOrder, offset, limit, withValues: false, titleSearch };
            const want = naive(specs, query);
            const plans = titleSearch ? (["narrow", "broad"] as const) : ([undefined] as const);
            for (const plan of plans) {
              const got = (await q.searchThreads(query, plan)).map((r) => r.thread_id);
              expect(got, `plan ${plan ?? "auto"}`).toEqual(want);
            }
            const all = naive(specs, { ...query, offset: 0, limit: 1000 });
            expect(await q.countThreads(query)).toBe(all.length);
          } finally {
            for (let i = 0; i < specs.length; i++) await q.deleteThread(`th-${String(i).padStart(2, "0")}`);
          }
        },
      ),
      { numRuns: h.dialect === "postgres" ? 40 : 120 },
    );
  }, 300_000);
});
