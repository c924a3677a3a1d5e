import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { fallbackTitle } from "@/lib/title";
import { API_URL, createHarness, human, type Harness } from "@/lib/server/test-harness";
import { resetStandardExtractSupport, searchStandardThreads, standardExtractSupport } from "./standard-search";
import { toThreadRow } from "./thread-row";

// The standard list's request against a server that honours `extract` (Threadline's own API, which
// implements it as LangGraph Platform documents it) and one that refuses it (the same API behind a
// strict front that answers 422 to the unknown field). `langgraph dev`, which drops the field
// silently, is in lib/server/remote/forward-langgraph-dev.test.ts.
let h: Harness;
beforeEach(() => resetStandardExtractSupport());
afterEach(async () => h?.close());

function recordingClient(refuseExtract: boolean) {
  const searches: Record<string, unknown>[] = [];
  const client = new Client({
    apiUrl: API_URL,
    callerOptions: {
      maxRetries: 0,
      fetch: (async (input: string | URL | Request, init?: RequestInit) => {
        const req = new Request(input, init);
        if (req.method === "POST" && new URL(req.url).pathname.endsWith("/threads/search")) {
          const body = JSON.parse(await req.clone().text()) as Record<string, unknown>;
          searches.push(body);
          if (refuseExtract && "extract" in body) return Response.json({ detail: "Unknown field: extract" }, { status: 422 });
        }
        return h.api.handle(req);
      }) as typeof fetch,
    },
  });
  return { client, searches };
}

async function twoConversations() {
  const texts = ["Plan a trip to Lisbon", "Fix my bike's brakes"];
  for (const text of texts) {
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human(text) });
  }
  return texts.map((text) => fallbackTitle(text)).reverse();
}

describe("the standard list asks for titles with extract where the server honours it", () => {
  it("a server that honours extract: one request, titles without any values", async () => {
    h = createHarness();
    const titles = await twoConversations();
    const { client, searches } = recordingClient(false);
    const threads = await searchStandardThreads(client, { sortBy: "updated_at", sortOrder: "desc", limit: 50 });
    expect(threads.map((t) => toThreadRow(t)?.title.title)).toEqual(titles);
    expect(threads.every((t) => !("values" in t))).toBe(true);
    expect(searches).toHaveLength(1);
    expect(searches[0]).toMatchObject({ extract: { title: "values.title" } });
    expect(searches[0].select).not.toContain("values");
    expect(standardExtractSupport()).toBe(true);
  });

  it("a server that refuses extract (422): asked again with values, and not with extract after that", async () => {
    h = createHarness();
    const titles = await twoConversations();
    const { client, searches } = recordingClient(true);
    const page = async () => (await searchStandardThreads(client, { sortBy: "updated_at", sortOrder: "desc", limit: 50 })).map((t) => toThreadRow(t)?.title.title);
    expect(await page()).toEqual(titles);
    expect(searches.map((s) => "extract" in s)).toEqual([true, false]);
    expect(searches[1].select).toContain("values");
    expect(standardExtractSupport()).toBe(false);
    expect(await page()).toEqual(titles);
    expect(searches.map((s) => "extract" in s)).toEqual([true, false, false]);
  });

  it("an empty list teaches nothing, and a refusal of a query that is bad anyway is not blamed on extract", async () => {
    h = createHarness();
    const { client, searches } = recordingClient(false);
    expect(await searchStandardThreads(client, { limit: 5 })).toEqual([]);
    expect(standardExtractSupport()).toBeUndefined();
    await expect(searchStandardThreads(client, { limit: -1 })).rejects.toMatchObject({ status: 422 });
    expect(standardExtractSupport()).toBeUndefined();
    expect(searches.map((s) => "extract" in s)).toEqual([true, true, false]);
  });
});
