/**
 * Read side of the store at scale: seeds N threads through the store's own write functions
 * (insertThread with a title, setStatus for later activity — the calls the API makes), then
 * times the sidebar's first page, title search (one match, every thread, none, the oldest
 * tenth, and that again as of a snapshot before the latest activity) and the per-user first page
 * (accounts mode's owner filter) as the raw store query, and
 * the first page and three of the searches as the SDK sees them through the real API handler
 * (called in-process: no HTTP), beside a bare GET /info. Every read checks its row count.
 *
 *   node_modules/.bin/tsx bench/store-scale.ts 10000 100000           # SQLite file
 *   TEST_DATABASE_URL=postgres://…/postgres node_modules/.bin/tsx bench/store-scale.ts 10000 100000
 *
 * Prints one line per figure (p50 / p95 in ms over SAMPLES reads after a warm-up). Reads run
 * after ANALYZE (Postgres: VACUUM ANALYZE), i.e. on statistics a settled database has.
 * STORE_SCALE_JSON=<file> also writes the figures there as JSON (`npm run bench` reads them:
 * bench/workloads/store.mjs).
 */
import fs from "node:fs";
import { FIRST_PAGE, fetchThreadPage } from "@/lib/client/thread-pages";
import { createHarness, type Harness } from "@/lib/server/test-harness";
import type { ThreadQuery } from "@/lib/server/store/search-sql";
import { sidebarQuery as webAppQuery } from "@/lib/server/store/thread-query";
import { p50, p95, timeSeries } from "./lib/stats.mjs";

const SAMPLES = Number(process.env.SAMPLES ?? 40);
const USERS = 200;
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (!sizes.length) sizes.push(10_000, 100_000);

const label = (i: number) => `t${String(i).padStart(6, "0")}`;
const iso = (ms: number) => new Date(ms).toISOString();

/** Threads i in [from, to): created 10 ms apart, titled, every 20th one active again later. */
async function seed(h: Harness, from: number, to: number, base: number) {
  const q = h.api.q;
  const BATCH = 500;
  for (let start = from; start < to; start += BATCH) {
    await q.transaction(async () => {
      for (let i = start; i < Math.min(to, start + BATCH); i++) {
        await q.insertThread({
          thread_id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
          at: iso(base + i * 10),
          metadata: JSON.stringify({ owner: `user-${i % USERS}` }),
          title: `${label(i)} question about sourdough`,
          title_source: '{"kind":"fallback"}',
        });
      }
    });
  }
  // Later activity (a run started and ended) on 5 % of them, after every create.
  await q.transaction(async () => {
    for (let i = from; i < to; i += 20) {
      await q.setStatus(`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, "idle", iso(base + to * 10 + i));
    }
  });
}

type Figure = { n: number; name: string; p50: number; p95: number };
const figures: Figure[] = [];
let currentN = 0;

async function time(name: string, fn: () => Promise<unknown>) {
  const xs = await timeSeries(fn, SAMPLES, 5);
  const figure = { n: currentN, name, p50: p50(xs), p95: p95(xs) };
  console.log(`${name.padEnd(52)} p50 ${figure.p50.toFixed(2).padStart(7)} ms   p95 ${figure.p95.toFixed(2).padStart(7)} ms`);
  figures.push(figure);
  return figure.p50;
}

/** The ThreadQuery the handler builds from the web app's request (lib/server/store/thread-query.ts). */
const sidebarQuery = (extra: Partial<ThreadQuery> = {}): ThreadQuery => webAppQuery(new Date().toISOString(), extra);

async function main() {
  const h = createHarness();
  const save = () => process.env.STORE_SCALE_JSON && fs.writeFileSync(process.env.STORE_SCALE_JSON, JSON.stringify({ dialect: h.dialect, figures }));
  await h.api.ready;
  console.log(`store: ${h.dialect}${h.dialect === "sqlite" ? ` (${h.dbPath})` : ""}`);
  const base = Date.now() - 10 * 60 * 60 * 1000;
  let made = 0;
  try {
    for (const n of sizes) {
      const t = performance.now();
      const made0 = made;
      await seed(h, made, n, base);
      made = n;
      currentN = n;
      await h.api.q.analyze(); // planner statistics (and, on Postgres, GIN's pending list flushed), as a settled database has
      console.log(`\nN=${n}: seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const q = h.api.q;
      const probe = label(Math.floor(n / 3));
      const page = Math.min(50, n);
      const expectRows = async (query: ThreadQuery, want: number) => {
        const rows = await q.searchThreads(query);
        if (rows.length !== want) throw new Error(`expected ${want} rows, got ${rows.length}`);
      };
      await time("store: first page (as_of, activity desc)", () => expectRows(sidebarQuery(), page));
      await time("store: title search, 1 match", () => expectRows(sidebarQuery({ titleSearch: probe }), 1));
      await time("store: title search, every thread", () => expectRows(sidebarQuery({ titleSearch: "question sourdough" }), page));
      await time("store: title search, no match", () => expectRows(sidebarQuery({ titleSearch: "zzzz" }), 0));
      // The oldest tenth to hundredth (at 100k "t00": t000000–t009999, none within the first 1,000
      // of the order, so the narrow plan sorts 10,000 matches). At 10k ("t000", 1,000 matches) 50 of
      // them are active later and near enough to the head that the search walks the order instead.
      const oldest = "t" + "0".repeat(Math.min(6, 7 - Math.floor(Math.log10(n))));
      const oldestMatches = Math.min(n, 10 ** (7 - oldest.length));
      const oldestPage = Math.min(50, oldestMatches);
      await time(`store: title search, the oldest ${oldestMatches} (${oldest})`, () => expectRows(sidebarQuery({ titleSearch: oldest }), oldestPage));
      // The same search on a later page's snapshot: as of just before this step's later activity
      // (after its last create), so the threads it made active again (every 20th, 4,500 at 100k)
      // are "active since" and each is tested against the matches (buildSearch's second branch).
      const before = sidebarQuery({ titleSearch: oldest, asOf: iso(base + n * 10 - 1) });
      await time(`store: title search, the oldest ${oldestMatches}, ${Math.ceil((n - made0) / 20)} active since`, () => expectRows(before, oldestPage));
      await time("store: per-user first page (owner)", () => expectRows(sidebarQuery({ authFilters: { owner: "user-7" } }), Math.max(0, Math.min(50, Math.ceil((n - 7) / USERS)))));
      await time("api: GET /info", async () => (await h.fetch("/info")).json());
      const expectPage = async (search: string, want: number) => {
        const { rows } = await fetchThreadPage(h.client, FIRST_PAGE, search);
        if (rows.length !== want) throw new Error(`expected ${want} rows through the SDK, got ${rows.length}`);
      };
      await time("api: first page (SDK, lean request)", () => expectPage("", page));
      await time("api: title search every thread (SDK)", () => expectPage("question sourdough", page));
      await time("api: title search 1 match (SDK)", () => expectPage(probe, 1));
      await time(`api: title search, the oldest ${oldestMatches} (SDK)`, () => expectPage(oldest, oldestPage));
      save(); // after each N, so a failure at a later one keeps these
    }
  } finally {
    await h.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
