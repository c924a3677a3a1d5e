import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { API_URL, createHarness, type Harness } from "../test-harness";
import { guardConfigFromEnv } from "../auth/request-guard";
import { createForwarder, type Forwarder } from "./forward";

// The forwarder's `$title_search` scan in front of a server that honours `extract` (Threadline's
// own API stands in for LangGraph Platform here, as in lib/client/standard-search.test.ts), and
// its matching rule against the embedded index itself: the same threads searched both ways must
// give the same threads. `langgraph dev`, which drops `extract`, is in title-scan-langgraph-dev.test.ts.
const ORIGIN = "http://127.0.0.1:4773";
let h: Harness;
let fwd: Forwarder;
const upstreamSearches: Record<string, unknown>[] = [];
let viaForwarder: Client;
const titles: string[] = [];
const idOf = new Map<string, string>();

beforeAll(async () => {
  h = createHarness();
  fwd = createForwarder(
    { apiUrl: API_URL, apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
    {
      fetch: async (input, init) => {
        const req = new Request(input, init);
        if (new URL(req.url).pathname.endsWith("/threads/search")) upstreamSearches.push(JSON.parse(await req.clone().text()) as Record<string, unknown>);
        return h.api.handle(req);
      },
    },
  );
  viaForwarder = new Client({ apiUrl: `${ORIGIN}/api/langgraph`, callerOptions: { maxRetries: 0, fetch: ((u: string, i?: RequestInit) => fwd.serve(new Request(u, i))) as typeof fetch } });
  // Titles with what the index treats specially: case, accents, symbols, emoji, scripts, punctuation at the edges.
  const fixed = ["Lisbon trip planning", "Café notes (Porto)", "C++ / C# tips,", "ÉTÉ à Montréal", "🏳️‍🌈 parade plan", "東京 旅行 計画", "#42 @team sync", "rock&roll playlist", "Ångström units"];
  const sample = fc.sample(fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }), { numRuns: 60, seed: 42 });
  for (const title of [...fixed, ...sample]) {
    const t = await h.client.threads.create();
    const answer = (await h.client.threads.updateState(t.thread_id, { values: { title } }).catch(() => null)) as { title?: string } | null;
    // A title the engine refuses (blank after sanitising) is no thread to search.
    if (!answer?.title || idOf.has(answer.title)) continue;
    titles.push(answer.title);
    idOf.set(answer.title, t.thread_id);
  }
}, 120_000);

afterAll(async () => h?.close());

const lean = { select: ["thread_id", "updated_at", "metadata"] as ("thread_id" | "updated_at" | "metadata")[], extract: { title: "values.title", title_source: "values.title_source" } };

describe("$title_search in front of a server that honours extract", () => {
  it("reads each page once with extract, and passes the rows on as that server sent them", async () => {
    const before = upstreamSearches.length;
    const rows = await viaForwarder.threads.search({ metadata: { $title_search: "lisb" }, limit: 10, ...lean });
    expect(rows.map((r) => r.thread_id)).toEqual([idOf.get("Lisbon trip planning")]);
    expect((rows[0] as unknown as { extracted: unknown }).extracted).toEqual({ title: "Lisbon trip planning", title_source: { kind: "user" } });
    expect(rows[0]).not.toHaveProperty("values");
    const reads = upstreamSearches.slice(before);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({ extract: lean.extract, select: lean.select, offset: 0 });
    expect(reads[0].metadata).toEqual({});
  });
});

describe("the scan's match rule is the embedded index's", () => {
  /** The threads each way finds, as sorted ids. */
  async function both(text: string) {
    const query = { metadata: { $title_search: text }, limit: 1000 };
    const ids = (rows: { thread_id: string }[]) => rows.map((r) => r.thread_id).sort();
    return { index: ids(await h.client.threads.search(query)), scan: ids(await viaForwarder.threads.search(query)) };
  }

  it("on words cut from the titles (prefixes, case changed, several at once)", async () => {
    const word = fc
      .tuple(fc.constantFrom(...titles), fc.nat(), fc.nat({ max: 12 }), fc.boolean())
      .map(([title, at, len, upper]) => {
        const words = title.split(/\s+/).filter(Boolean);
        const w = words[at % words.length] ?? "";
        const cut = w.slice(0, Math.max(1, len));
        return upper ? cut.toUpperCase() : cut;
      });
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 3 }), async (words) => {
        const { index, scan } = await both(words.join(" "));
        expect(scan).toEqual(index);
      }),
      { numRuns: 150, seed: 7 },
    );
  }, 120_000);

  it("on any text (graphemes up to 20), which mostly matches nothing on either side", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 20 }), async (text) => {
        const { index, scan } = await both(text);
        expect(scan).toEqual(index);
      }),
      { numRuns: 100, seed: 11 },
    );
  }, 120_000);

  it("finds something on the hand-picked cases, so the comparison is not of two empty lists", async () => {
    for (const [q, title] of [["cafe", "Café notes (Porto)"], ["c++", "C++ / C# tips,"], ["c#", "C++ / C# tips,"], ["ete montr", "ÉTÉ à Montréal"], ["🏳️‍🌈", "🏳️‍🌈 parade plan"], ["東京", "東京 旅行 計画"], ["#42", "#42 @team sync"], ["@team", "#42 @team sync"], ["rock&", "rock&roll playlist"], ["angstrom", "Ångström units"]]) {
      const { index, scan } = await both(q);
      expect(scan, q).toEqual(index);
      expect(scan, q).toContain(idOf.get(title));
    }
  });
});
