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
  it("scans lean pages (the id and the title by extract), then reads the page of matches in the caller's shape", async () => {
    const before = upstreamSearches.length;
    const rows = await viaForwarder.threads.search({ metadata: { $title_search: "lisb" }, limit: 10, ...lean });
    expect(rows.map((r) => r.thread_id)).toEqual([idOf.get("Lisbon trip planning")]);
    expect((rows[0] as unknown as { extracted: unknown }).extracted).toEqual({ title: "Lisbon trip planning", title_source: { kind: "user" } });
    expect(rows[0]).not.toHaveProperty("values");
    const reads = upstreamSearches.slice(before);
    expect(reads).toEqual([
      { metadata: {}, select: ["thread_id"], extract: { title: "values.title" }, limit: 250, offset: 0 },
      { metadata: {}, select: lean.select, extract: lean.extract, ids: [idOf.get("Lisbon trip planning")], limit: 1, offset: 0 },
    ]);
  });

  it("a caller that asks for `values`, or names its extract fields otherwise, still gets a lean scan and its own shape", async () => {
    const before = upstreamSearches.length;
    const [whole] = await viaForwarder.threads.search({ metadata: { $title_search: "lisb" }, limit: 10 });
    expect((whole.values as { title: string }).title).toBe("Lisbon trip planning");
    const [named] = await viaForwarder.threads.search({ metadata: { $title_search: "lisb" }, limit: 10, select: ["thread_id"], extract: { name: "values.title" } });
    expect((named as unknown as { extracted: unknown }).extracted).toEqual({ name: "Lisbon trip planning" });
    // A `select` without the id still gets its matches, in the shape it asked for.
    const bare = await viaForwarder.threads.search({ metadata: { $title_search: "lisb" }, limit: 10, select: ["created_at"] });
    expect(bare).toHaveLength(1);
    expect(Object.keys(bare[0])).toEqual(["created_at"]);
    const scans = upstreamSearches.slice(before).filter((r) => !("ids" in r));
    expect(scans.map((r) => r.select)).toEqual([["thread_id"], ["thread_id"], ["thread_id"]]);
  });

  it("reads page after page up to the scan limit, in the caller's order, and pages the matches like the index", async () => {
    const batch = { batch: "many" };
    for (let i = 0; i < 560; i++) {
      const t = await h.client.threads.create({ metadata: batch });
      await h.client.threads.updateState(t.thread_id, { values: { title: i % 2 ? `Filler ${i}` : `Sparrow count ${i}` } });
    }
    const query = { metadata: { $title_search: "sparrow", ...batch }, sortBy: "updated_at" as const, sortOrder: "desc" as const, limit: 40 };
    for (const offset of [0, 200, 260, 280]) {
      const before = upstreamSearches.length;
      const scan = (await viaForwarder.threads.search({ ...query, offset })).map((r) => r.thread_id);
      const index = (await h.client.threads.search({ ...query, offset })).map((r) => r.thread_id);
      expect(scan, `offset ${offset}`).toEqual(index);
      const reads = upstreamSearches
        .slice(before)
        .filter((r) => !("ids" in r))
        .map((r) => r.offset);
      // 280 matches among 560: the scan stops at the page where offset + limit are found.
      expect(reads, `offset ${offset}`).toEqual(offset + 40 <= 125 ? [0] : offset + 40 <= 250 ? [0, 250] : [0, 250, 500]);
    }
    expect((await viaForwarder.threads.search({ ...query, offset: 280 })).length).toBe(0);
    // A narrower scan stops at its limit: 300 threads, so 150 matches, in pages of 250 then 50.
    const narrow = createForwarder(
      { apiUrl: API_URL, apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 300 },
      { fetch: (input, init) => h.api.handle(new Request(input, init)) },
    );
    const client = new Client({ apiUrl: `${ORIGIN}/api/langgraph`, callerOptions: { maxRetries: 0, fetch: ((u: string, i?: RequestInit) => narrow.serve(new Request(u, i))) as typeof fetch } });
    expect((await client.threads.search({ ...query, limit: 1000 })).length).toBe(150);
  }, 120_000);

  it("a thread that moves up while the scan is under way is not answered twice", async () => {
    const batch = { batch: "moving" };
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) {
      const t = await h.client.threads.create({ metadata: batch });
      await h.client.threads.updateState(t.thread_id, { values: { title: `Wren ${i}` } });
      ids.push(t.thread_id);
    }
    // Between the first and the second page, the oldest thread is renamed and so moves to the top.
    let pages = 0;
    const moving = createForwarder(
      { apiUrl: API_URL, apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
      {
        fetch: async (input, init) => {
          const res = await h.api.handle(new Request(input, init));
          if (++pages === 1) await h.client.threads.updateState(ids[0], { values: { title: "Wren moved" } });
          return res;
        },
      },
    );
    const client = new Client({ apiUrl: `${ORIGIN}/api/langgraph`, callerOptions: { maxRetries: 0, fetch: ((u: string, i?: RequestInit) => moving.serve(new Request(u, i))) as typeof fetch } });
    const found = (await client.threads.search({ metadata: { $title_search: "wren", ...batch }, sortBy: "updated_at", sortOrder: "desc", limit: 1000 })).map((r) => r.thread_id);
    expect(new Set(found).size).toBe(found.length);
    // The 250th thread of the first page was read again at the top of the second: counted once.
    expect(found.length).toBe(299);
  }, 60_000);

  it("a server that refuses extract (400/422) is scanned with values from then on", async () => {
    const reads: Record<string, unknown>[] = [];
    const strict = createForwarder(
      { apiUrl: API_URL, apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
      {
        fetch: async (input, init) => {
          const req = new Request(input, init);
          const body = JSON.parse(await req.clone().text()) as Record<string, unknown>;
          reads.push(body);
          if ("extract" in body) return Response.json({ detail: "Unknown field: extract" }, { status: 422 });
          return h.api.handle(req);
        },
      },
    );
    const client = new Client({ apiUrl: `${ORIGIN}/api/langgraph`, callerOptions: { maxRetries: 0, fetch: ((u: string, i?: RequestInit) => strict.serve(new Request(u, i))) as typeof fetch } });
    const query = { metadata: { $title_search: "lisb" }, limit: 10, select: ["thread_id" as const, "values" as const] };
    expect((await client.threads.search(query)).map((r) => r.thread_id)).toEqual([idOf.get("Lisbon trip planning")]);
    expect(await client.threads.search(query)).toHaveLength(1);
    const shape = (r: Record<string, unknown>) => ("ids" in r ? "ids" : "extract" in r ? "lean" : "values");
    const shapes = reads.map(shape);
    // One lean try, refused; every scan page after it (two searches over several pages) with values.
    expect(shapes.slice(0, 2)).toEqual(["lean", "values"]);
    expect(shapes.filter((x) => x === "lean")).toHaveLength(1);
    expect(shapes.filter((x) => x === "ids")).toHaveLength(2);
    expect(shapes.at(-1)).toBe("ids");
  });

  it("count has no $title_search here: a clear 422, not a silent 0", async () => {
    const res = await fwd.serve(new Request(`${ORIGIN}/api/langgraph/threads/count`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ metadata: { $title_search: "lisb" } }) }));
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toMatch(/not offered on \/threads\/count/);
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
