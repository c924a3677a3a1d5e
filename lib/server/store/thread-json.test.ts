import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THREAD_FIELDS, threadSearchSchema } from "../http/schemas";
import { threadSearchQuery } from "./thread-query";
import { createHarness, human, sleep, testDialect, type Harness } from "../test-harness";

// A search page's JSON is written by the database (search-sql.ts, threadJsonColumn), while single
// threads (get, create, patch, copy) are still made by Registry.threadJson. Both must say the same
// thing of a row, whatever the request asks for: this compares, for generated requests, the page
// the API sends (SDK, real handler) with threadJson applied to the rows of the very same search.
let h: Harness;
const ids: Record<string, string> = {};
beforeAll(async () => {
  h = createHarness();
  await h.api.ready;
  const make = async (name: string, metadata?: Record<string, unknown>) => (ids[name] = (await h.client.threads.create(metadata ? { metadata } : {})).thread_id);
  // No checkpoint yet: values_json is NULL.
  await make("empty");
  // Metadata of every JSON kind, and text that needs escaping in JSON.
  await make("odd metadata", {
    unicode: "Café “quoted” \\ back\\slash / slash \n newline \t tab 😀 \u0001",
    n: 1.5,
    big: 12345678901234567890,
    neg: -0.000125,
    yes: true,
    no: false,
    nothing: null,
    list: [1, "two", { three: [3] }, []],
    nested: { deep: { deeper: "down" }, empty: {} },
  });
  // A real first exchange: messages in values, the fallback title and its source.
  await make("answered", { owner: "someone" });
  await h.client.runs.wait(ids.answered, "agent", { input: human("How do I keep a sourdough starter alive over the holidays?") });
  // A pinned title with characters JSON escapes.
  await make("renamed");
  await h.client.threads.updateState(ids.renamed, { values: { title: 'Tabs, "quotes" & emoji 🎉 — ünïcödé' } });
  // A rename accepted during a run, not yet in the checkpoint (pin_pending): the values show it.
  await make("pin pending");
  await h.client.runs.wait(ids["pin pending"], "agent", { input: human("Sourdough hydration for a beginner loaf") });
  await h.sql(`UPDATE tl_threads SET title = 'Pinned "during" a run', title_source = '{"kind":"user"}', pin_pending = 1 WHERE thread_id = '${ids["pin pending"]}'`);
  // The same with no title.
  await make("pin pending, no title");
  await h.sql(`UPDATE tl_threads SET values_json = '{"messages":[{"type":"human","content":"no title yet"}],"title":"Old"}', title = NULL, title_source = '{"kind":"user"}', pin_pending = 1 WHERE thread_id = '${ids["pin pending, no title"]}'`);
  // An interrupted thread's interrupts (written under the API: the graph here never interrupts).
  await make("interrupted");
  await h.sql(`UPDATE tl_threads SET interrupts_json = '{"task-1":[{"value":{"question":"Continue?"},"id":"i-1"}]}', status = 'interrupted' WHERE thread_id = '${ids.interrupted}'`);
  // A row from before activity was recorded (activity_at NULL).
  await make("no activity");
  await h.sql(`UPDATE tl_threads SET activity_at = NULL WHERE thread_id = '${ids["no activity"]}'`);
  // An instant between the threads above and the ones below; then an older thread moves after
  // it, so a page `$as_of` that instant takes its UNION branch of threads active since.
  await sleep(5);
  midpoint = new Date().toISOString();
  await sleep(5);
  await make("after the midpoint", { owner: "someone" });
  await h.client.threads.updateState(ids["odd metadata"], { values: { title: "Sourdough, moved after the midpoint" } });
});
let midpoint = "";
afterAll(async () => h?.close());

const EXTRACT_PATHS = ["values.title", "values.title_source", "values.messages", "values.missing", "metadata.owner", "metadata.n", "metadata.nested.deep", "metadata.unicode", "metadata.list", "metadata.nothing"];

const searchBody = fc.record(
  {
    select: fc.array(fc.constantFrom(...THREAD_FIELDS), { minLength: 1, maxLength: 12 }),
    extract: fc.dictionary(fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/), fc.constantFrom(...EXTRACT_PATHS), { minKeys: 1, maxKeys: 5 }),
    sort_by: fc.constantFrom("thread_id", "status", "created_at", "updated_at", "activity_at"),
    sort_order: fc.constantFrom("asc", "desc"),
    limit: fc.integer({ min: 1, max: 10 }),
    offset: fc.integer({ min: 0, max: 3 }),
    asOf: fc.constantFrom("none", "future", "midpoint"),
    // Both title plans ("narrow" from the index, "broad" walking the order) and one that matches nothing.
    titleSearch: fc.constantFrom("sourdough", "tabs quotes", "ünïcödé", "nothing matches this"),
    metadata: fc.constantFrom({ owner: "someone" }, { yes: true }, { nested: { deep: { deeper: "down" }, empty: {} } }),
    status: fc.constantFrom("idle", "interrupted"),
    ids: fc.constantFrom("two", "all"),
  },
  { requiredKeys: ["sort_by", "sort_order", "limit", "offset", "asOf"] },
);

/** The request's body as the schema and the SDK see it. */
function bodyOf({ asOf, titleSearch, metadata, ids: which, ...rest }: typeof searchBody extends fc.Arbitrary<infer T> ? T : never) {
  const filter: Record<string, unknown> = { ...metadata };
  if (asOf !== "none") filter.$as_of = asOf === "future" ? new Date(Date.now() + 60_000).toISOString() : midpoint;
  if (titleSearch !== undefined) filter.$title_search = titleSearch;
  const idList = which === undefined ? undefined : which === "all" ? Object.values(ids) : [ids.answered, ids["odd metadata"]];
  return { ...rest, metadata: Object.keys(filter).length ? filter : undefined, ids: idList };
}

describe("a search page written by the database", () => {
  it("is, thread for thread and key for key, what Registry.threadJson makes of the same rows", async () => {
    await fc.assert(
      fc.asyncProperty(searchBody, async (request) => {
        const body = bodyOf(request);
        const got = await h.client.threads.search({
          metadata: body.metadata,
          ids: body.ids,
          status: body.status as never,
          select: body.select as never,
          extract: body.extract,
          sortBy: body.sort_by as never,
          sortOrder: body.sort_order as never,
          limit: body.limit,
          offset: body.offset,
        });
        const parsed = threadSearchSchema.parse(body);
        const query = threadSearchQuery(parsed);
        const rows = await h.api.registry.search(query);
        const want = JSON.parse(JSON.stringify(rows.map((r) => h.api.registry.threadJson(r, { select: parsed.select, extract: query.extract }))));
        expect(got).toStrictEqual(want);
        got.forEach((thread, i) => expect(Object.keys(thread)).toEqual(Object.keys(want[i])));
        // The store's own answer too, so the test still compares the two if the handler changes.
        expect(JSON.parse(await h.api.q.searchThreadsJson(query))).toStrictEqual(want);
      }),
      { numRuns: Number(process.env.THREAD_JSON_RUNS ?? 150) },
    );
  });

  it("holds every kind of row this suite made (so the property above compared them all)", async () => {
    const all = await h.client.threads.search({ limit: 10 });
    expect(new Set(all.map((t) => t.thread_id))).toEqual(new Set(Object.values(ids)));
    const byId = Object.fromEntries(all.map((t) => [t.thread_id, t]));
    expect(byId[ids.empty].values).toBeNull();
    expect(byId[ids.interrupted].interrupts).toEqual({ "task-1": [{ value: { question: "Continue?" }, id: "i-1" }] });
    expect((byId[ids.renamed].values as { title: string }).title).toBe('Tabs, "quotes" & emoji 🎉 — ünïcödé');
    expect(byId[ids["pin pending"]].values).toMatchObject({ title: 'Pinned "during" a run', title_source: { kind: "user" } });
    expect(((byId[ids["pin pending"]].values as { messages: unknown[] }).messages ?? []).length).toBe(2);
    expect(byId[ids["pin pending, no title"]].values).toMatchObject({ title: null, title_source: { kind: "user" }, messages: [{ content: "no title yet" }] });
    expect((byId[ids["odd metadata"]].metadata as { unicode: string }).unicode).toContain("😀 \u0001");
    expect(((byId[ids.answered].values as { messages: unknown[] }).messages ?? []).length).toBe(2);
    expect((byId[ids["no activity"]] as { activity_at?: string | null }).activity_at).toBeNull();
    // `$as_of` the midpoint: the thread created after it is hidden, the one that moved since is listed.
    const asOfMidpoint = await h.client.threads.search({ metadata: { $as_of: midpoint }, sortBy: "activity_at" as never, limit: 10, select: ["thread_id"] });
    const listed = asOfMidpoint.map((t) => t.thread_id);
    expect(listed).toContain(ids["odd metadata"]);
    expect(listed).not.toContain(ids["after the midpoint"]);
  });
});

// SQLite only: Postgres's ::json refuses such text, and it has no cheap validity test before 16.
describe.skipIf(testDialect === "postgres")("a row whose JSON columns are not JSON (a hand-edited database)", () => {
  it("is listed as Registry.threadJson reads it ({} or null), and the page still answers", async () => {
    const other = createHarness();
    try {
      await other.api.ready;
      const { thread_id } = await other.client.threads.create();
      await other.client.threads.updateState(thread_id, { values: { title: "Still listed" } });
      // (metadata cannot be broken here: the indexes on its generated columns refuse such a write.)
      other.db.prepare("UPDATE tl_threads SET values_json = '{\"broken', interrupts_json = '[', title_source = '{x' WHERE thread_id = ?").run(thread_id);
      const extract = { title: "values.title", title_source: "values.title_source" };
      const [whole] = await other.client.threads.search({ extract });
      expect(whole).toMatchObject({ thread_id, values: null, interrupts: {}, extracted: { title: "Still listed", title_source: null } });
      const rows = await other.api.registry.search(threadSearchQuery({ extract }));
      expect(whole).toStrictEqual(JSON.parse(JSON.stringify(other.api.registry.threadJson(rows[0], { extract: Object.entries(extract) }))));
    } finally {
      await other.close();
    }
  });
});
