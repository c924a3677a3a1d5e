import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THREAD_FIELDS, threadSearchSchema } from "../http/schemas";
import { threadSearchQuery } from "./thread-query";
import { createHarness, human, type Harness } from "../test-harness";

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
  // An interrupted thread's interrupts (written under the API: the graph here never interrupts).
  await make("interrupted");
  await h.sql(`UPDATE tl_threads SET interrupts_json = '{"task-1":[{"value":{"question":"Continue?"},"id":"i-1"}]}', status = 'interrupted' WHERE thread_id = '${ids.interrupted}'`);
});
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
    asOf: fc.boolean(),
  },
  { requiredKeys: ["sort_by", "sort_order", "limit", "offset", "asOf"] },
);

describe("a search page written by the database", () => {
  it("is, thread for thread and key for key, what Registry.threadJson makes of the same rows", async () => {
    await fc.assert(
      fc.asyncProperty(searchBody, async ({ asOf, ...request }) => {
        const body = { ...request, metadata: asOf ? { $as_of: new Date(Date.now() + 60_000).toISOString() } : undefined };
        const got = await h.client.threads.search({
          metadata: body.metadata,
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
    expect((byId[ids["odd metadata"]].metadata as { unicode: string }).unicode).toContain("😀 \u0001");
    expect(((byId[ids.answered].values as { messages: unknown[] }).messages ?? []).length).toBe(2);
  });
});
