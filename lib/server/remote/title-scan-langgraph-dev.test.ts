import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client, type Thread } from "@langchain/langgraph-sdk";
import { resetStandardExtractSupport } from "@/lib/client/standard-search";
import { FIRST_PAGE, fetchThreadPage, nextPageParam } from "@/lib/client/thread-pages";
import { startLanggraphDev, type LanggraphDevServer } from "@/lib/agent/testing/langgraph-dev-server";
import { guardConfigFromEnv } from "../auth/request-guard";
import { createForwarder, type Forwarder } from "./forward";
import { streamUntilTitled } from "./test-runs";
import { SCAN_PAGE } from "./title-scan";

// `$title_search` in front of `langgraph dev` serving langgraph.json: the forwarder reads that
// server's threads (which drop `extract`, so the titles come from `values`) and matches them with
// the embedded index's rule. The official SDK talks to the forwarder as the browser does.
const ORIGIN = "http://127.0.0.1:4772";
let server: LanggraphDevServer | undefined;
let upstream: Client;
const upstreamSearches: Record<string, unknown>[] = [];
// langgraph dev keeps its threads in the working directory, which other suites' servers share:
// every thread here carries this run's tag, and every search filters on it.
const TAG = `scan${Math.random().toString(36).slice(2, 8)}`;
const mine = { run: TAG };

function forwarder(searchScan: number): Forwarder {
  return createForwarder(
    { apiUrl: server!.apiUrl, apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan },
    {
      fetch: async (input, init) => {
        if (String(input).endsWith("/threads/search")) upstreamSearches.push(JSON.parse(await new Response(init?.body).text()) as Record<string, unknown>);
        return fetch(input, init);
      },
    },
  );
}

const sdkOf = (fwd: Forwarder) =>
  new Client({ apiUrl: `${ORIGIN}/api/langgraph`, callerOptions: { maxRetries: 0, fetch: ((u: string, i?: RequestInit) => fwd.serve(new Request(u, i))) as typeof fetch } });

/** A thread with this title on the LangGraph server (as a user rename leaves it), newest last. */
async function titled(title: string, metadata: Record<string, unknown> = {}): Promise<string> {
  const t = await upstream.threads.create({ graphId: "agent", metadata: { ...mine, ...metadata } });
  await upstream.threads.updateState(t.thread_id, { values: { title, title_source: { kind: "user" } } });
  return t.thread_id;
}

const idsOf = (rows: Thread[]) => rows.map((r) => r.thread_id);
const lean = { select: ["thread_id", "updated_at", "metadata"] as const, extract: { title: "values.title", title_source: "values.title_source" } };

beforeAll(async () => {
  server = await startLanggraphDev({ OFFLINE_MODEL_DELAY_MS: "40" });
  upstream = new Client({ apiUrl: server.apiUrl });
}, 100_000);

afterAll(() => server?.stop());

describe("title search in front of langgraph dev", () => {
  let fwd: Forwarder;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    fwd = forwarder(5000);
    for (const title of ["Lisbon trip planning", "Café notes for Porto", "C++ template tricks", "Trip to Porto in May", "Weekly groceries"]) {
      ids[title] = await titled(title);
    }
  }, 60_000);

  it("finds part of a title: each word a prefix, case and accents folded, symbols kept, newest first", async () => {
    const sdk = sdkOf(fwd);
    const find = async (q: string) => idsOf(await sdk.threads.search({ metadata: { $title_search: q, ...mine }, limit: 50, ...lean, select: [...lean.select] }));
    expect(await find("trip")).toEqual([ids["Trip to Porto in May"], ids["Lisbon trip planning"]]);
    expect(await find("CAFE")).toEqual([ids["Café notes for Porto"]]);
    expect(await find("c++")).toEqual([ids["C++ template tricks"]]);
    expect(await find("lisb plan")).toEqual([ids["Lisbon trip planning"]]);
    expect(await find("porto may")).toEqual([ids["Trip to Porto in May"]]);
    // A word inside another word is no prefix; a word missing from the title is no match.
    expect(await find("isbon")).toEqual([]);
    expect(await find("lisbon groceries")).toEqual([]);
  });

  it("answers in the shape asked, and other filters still apply", async () => {
    const thread = await upstream.threads.create({ metadata: { ...mine, kind: "run" } });
    await upstream.runs.wait(thread.thread_id, "agent", { input: { messages: [{ type: "human", content: "Compare two used cameras for travel" }] } });
    const sdk = sdkOf(fwd);
    const [row, ...rest] = await sdk.threads.search({ metadata: { $title_search: "cameras", kind: "run", ...mine }, limit: 5, ...lean, select: [...lean.select] });
    expect(rest).toEqual([]);
    expect(row.thread_id).toBe(thread.thread_id);
    // langgraph dev drops `extract` and `values` was not asked for: the row is as that server
    // answers the same lean query (the sidebar then asks again with `values`, standard-search.ts).
    expect(row).not.toHaveProperty("values");
    expect(row).not.toHaveProperty("extracted");
    expect(await sdk.threads.search({ metadata: { $title_search: "cameras", ...mine, kind: "other" }, limit: 5 })).toEqual([]);
    // Asked with `values` (the SDK's default shape), the thread comes whole.
    const [whole] = await sdk.threads.search({ metadata: { $title_search: "cameras", ...mine }, limit: 5 });
    expect((whole.values as { messages?: unknown[] }).messages?.length).toBeGreaterThan(1);
  }, 60_000);

  it("pages through the matches as the sidebar does, each once, in order", async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.unshift(await titled(`Harbour log ${i}`));
    const sdk = sdkOf(fwd);
    const page = (offset: number) => sdk.threads.search({ metadata: { $title_search: "harbour", ...mine }, limit: 3, offset, ...lean, select: [...lean.select] });
    const pages = [await page(0), await page(3), await page(6), await page(9)];
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1, 0]);
    expect(pages.flatMap(idsOf)).toEqual(made);
  }, 60_000);

  it("the sidebar's own search in standard-API mode (lib/client/thread-pages) finds titles by part", async () => {
    resetStandardExtractSupport();
    vi.stubEnv("LANGGRAPH_API_URL", server!.apiUrl);
    try {
      const sdk = sdkOf(fwd);
      // As the page does: the list first (it learns that `extract` is dropped), then a search.
      expect((await fetchThreadPage(sdk, FIRST_PAGE, "")).rows.length).toBeGreaterThan(0);
      // The sidebar sends no metadata filter: this run's own word finds its threads.
      const older = await titled(`Osprey ${TAG} sightings`);
      const newer = await titled(`Kestrel nest (${TAG.toUpperCase()})`);
      const first = await fetchThreadPage(sdk, FIRST_PAGE, TAG.slice(0, -1));
      expect(first.rows.map((r) => r.id)).toEqual([newer, older]);
      expect(first.rows[0].title.title).toBe(`Kestrel nest (${TAG.toUpperCase()})`);
      expect(nextPageParam(first)).toBeUndefined();
      const none = await fetchThreadPage(sdk, FIRST_PAGE, "nothing-like-this");
      expect(none.rows).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
      resetStandardExtractSupport();
    }
  }, 30_000);

  it("a waiting rename is found by its new title, not its old one", async () => {
    const sdk = sdkOf(fwd);
    const thread = await sdk.threads.create({ metadata: mine });
    const run = await streamUntilTitled(sdk, thread.thread_id, "Tell me a long story about lighthouses and the sea");
    const answer = (await sdk.threads.updateState(thread.thread_id, { values: { title: "Beacon keeper diary" } })) as unknown as Record<string, unknown>;
    expect(answer).toMatchObject({ pending: true });
    expect(idsOf(await sdk.threads.search({ metadata: { $title_search: "beacon keeper", ...mine }, limit: 5 }))).toEqual([thread.thread_id]);
    expect(idsOf(await sdk.threads.search({ metadata: { $title_search: "lighthouses", ...mine }, limit: 5 }))).toEqual([]);
    await run.finish();
    expect(await fwd.renames.settled(thread.thread_id)).toBe(true);
    expect(idsOf(await sdk.threads.search({ metadata: { $title_search: "beacon", ...mine }, limit: 5 }))).toEqual([thread.thread_id]);
  }, 90_000);

  it("a waiting rename, on a forwarder that has not yet learnt that extract is dropped, hides none of the other matches", async () => {
    // State writes are answered "busy" while held, as during a run, so the rename stays waiting.
    let hold = true;
    const fresh = createForwarder(
      { apiUrl: server!.apiUrl, apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
      {
        fetch: async (input, init) => {
          if (hold && init?.method === "POST" && /\/threads\/[^/]+\/state$/.test(String(input))) return Response.json({ detail: "Thread is busy" }, { status: 409 });
          return fetch(input, init);
        },
      },
    );
    const herons: string[] = [];
    for (let i = 0; i < 4; i++) herons.unshift(await titled(`Heron ${i}`, { flock: "herons" }));
    const sdk = sdkOf(fresh);
    const answer = (await sdk.threads.updateState(herons[3], { values: { title: "Heron at dusk" } })) as unknown as Record<string, unknown>;
    expect(answer).toMatchObject({ pending: true });
    const found = await sdk.threads.search({ metadata: { $title_search: "heron", ...mine, flock: "herons" }, limit: 10, ...lean, select: [...lean.select, "values"] });
    expect(idsOf(found)).toEqual(herons);
    expect(found.map((t) => (t.values as { title: string }).title)).toEqual(["Heron 3", "Heron 2", "Heron 1", "Heron at dusk"]);
    hold = false;
    expect(await fresh.renames.settled(herons[3])).toBe(true);
  }, 60_000);

  it("bad input is a clear 422 and never reaches the LangGraph server", async () => {
    const before = upstreamSearches.length;
    const post = (body: unknown) =>
      fwd.serve(new Request(`${ORIGIN}/api/langgraph/threads/search`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
    for (const [body, detail] of [
      [{ metadata: { $title_search: 5 } }, /\$title_search must be a string/],
      [{ metadata: { $title_search: "x".repeat(501) } }, /at most 500/],
      [{ metadata: { $title_search: "trip", $as_of: new Date().toISOString() } }, /\$as_of is not offered/],
      [{ metadata: { $title_search: "trip" }, limit: 5000 }, /limit/],
      [{ metadata: { $title_search: "trip", $where: 1 } }, /Unknown filter \$where/],
    ] as const) {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect((await res.json()).detail).toMatch(detail);
    }
    expect(upstreamSearches.length).toBe(before);
    // Text with nothing searchable in it matches nothing, as on the embedded API.
    expect(await (await post({ metadata: { $title_search: "  ,,, ", ...mine } })).json()).toEqual([]);
    // Blank text is no title filter, as there too: the rest of the query is answered as it stands.
    expect((await (await post({ metadata: { $title_search: "  ", ...mine, kind: "run" } })).json()).length).toBe(1);
  });
});

describe("how far a search in front of a LangGraph server looks", () => {
  it("reads at most THREADLINE_REMOTE_SEARCH_SCAN threads, in the caller's order (here the default, newest created first), in pages", async () => {
    const needle = await titled("Needle in the archive", { batch: "scan" });
    for (let i = 0; i < 100; i++) await titled(`Filler conversation ${i}`, { batch: "scan" });
    const query = { metadata: { $title_search: "needle", ...mine, batch: "scan" }, limit: 10 };
    // The needle is the 101st newest of this batch: a scan of 100 stops before it…
    const shape = (r: Record<string, unknown>) => [r.limit, r.offset, (r.select as string[]).includes("values") ? "values" : "lean"];
    const before = upstreamSearches.length;
    expect(await sdkOf(forwarder(100)).threads.search(query)).toEqual([]);
    const reads = upstreamSearches.slice(before);
    // A new forwarder asks the first page lean, learns that `extract` is dropped, asks it again with `values`.
    expect(reads.map(shape)).toEqual([
      [100, 0, "lean"],
      [100, 0, "values"],
    ]);
    expect(reads[0].metadata).toEqual({ ...mine, batch: "scan" });
    // …one of 101 reaches it, in pages of at most SCAN_PAGE, then reads the match in the caller's shape.
    const wide = forwarder(SCAN_PAGE + 10);
    const mark = upstreamSearches.length;
    expect(idsOf(await sdkOf(wide).threads.search(query))).toEqual([needle]);
    expect(upstreamSearches.slice(mark).map((r) => ("ids" in r ? ["ids", r.ids] : shape(r)))).toEqual([
      [SCAN_PAGE, 0, "lean"],
      [SCAN_PAGE, 0, "values"],
      ["ids", [needle]],
    ]);
  }, 120_000);
});
