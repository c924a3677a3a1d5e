import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test-harness";
import type { Queries } from "./queries";
import type { ThreadQuery } from "./search-sql";
import { queryWords, searchTerms } from "@/lib/title/search-words";

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
            const plans = titleSearch ? (["narrow", "broad", undefined] as const) : ([undefined] as const);
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

/**
 * Every plan's title test (FTS5 MATCH / GIN for "narrow", the per-row instr / tsvector test for
 * "broad", and the probe that chooses) against the definition: a thread matches when one of its
 * titles has, for every folded query word, a term (searchTerms) that starts with it. Titles and
 * queries mix case, Latin diacritics, symbols, emoji, CJK and FTS / LIKE / tsquery syntax.
 */
const PIECES = ["Café", "CAFE", "naïve", "Über", "C++", "c#/F#", "don't", "(x)", "a.b", "🏳️‍🌈", "请帮我", "50%", "a_b", "NEAR(d", "x\"y", "it's", "\\back", "ÉTÉ", "Ωmega"];
const title = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }).map((ws) => ws.join(" "));
/** A query word: a prefix of one piece, in a random case (an empty or all-punctuation word drops out). */
const queryWord = fc
  .tuple(fc.constantFrom(...PIECES), fc.integer({ min: 1, max: 6 }), fc.boolean())
  .map(([p, n, upper]) => ([...p].slice(0, n).join("")[upper ? "toUpperCase" : "toLowerCase"]()));

function matchesDefinition(titles: string[], text: string): boolean {
  const words = queryWords(text);
  return words.length > 0 && titles.some((t) => words.every((w) => searchTerms(t).split(" ").some((term) => term.startsWith(w))));
}

describe("title search: every plan finds what the definition says", () => {
  it("folded prefixes of words with symbols, diacritics, emoji and CJK agree across plans", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(title, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }), fc.array(queryWord, { minLength: 1, maxLength: 2 }), async (threads, words) => {
        const text = words.join(" ");
        await q.transaction(async () => {
          for (const [i, titles] of threads.entries()) {
            await q.insertThread({ thread_id: `tw-${i}`, at: at(i), metadata: "{}", title: titles[0], title_source: '{"kind":"user"}' });
            for (const t of titles.slice(1)) await q.setTitle(`tw-${i}`, t, '{"kind":"user"}', false, at(i));
          }
        });
        try {
          const query: ThreadQuery = { asOf: at(100), sortBy: "activity_at", sortOrder: "desc", offset: 0, limit: 20, withValues: false, titleSearch: text };
          const want = threads.flatMap((titles, i) => (matchesDefinition(titles, text) ? [`tw-${i}`] : [])).reverse();
          for (const plan of ["narrow", "broad", undefined] as const) {
            expect((await q.searchThreads(query, plan)).map((r) => r.thread_id), `plan ${plan ?? "auto"}, ${JSON.stringify(text)}`).toEqual(want);
          }
          expect(await q.countThreads(query)).toBe(want.length);
        } finally {
          for (let i = 0; i < threads.length; i++) await q.deleteThread(`tw-${i}`);
        }
      }),
      { numRuns: h.dialect === "postgres" ? 60 : 200 },
    );
  }, 300_000);
});
