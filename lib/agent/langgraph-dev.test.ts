import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { fallbackTitle } from "@/lib/title";
import { startLanggraphDev, type LanggraphDevServer } from "./testing/langgraph-dev-server";

// The same graph (langgraph.json → lib/agent/graph.ts) served by `langgraph dev` instead of our
// Next.js API: titles must work there too, with the pin read from state (no registry).
let server: LanggraphDevServer | undefined;
let apiUrl = "";

beforeAll(async () => {
  server = await startLanggraphDev();
  apiUrl = server.apiUrl;
}, 100_000);

afterAll(() => server?.stop());

describe("the agent served by langgraph dev", () => {
  it("titles the first exchange and keeps a pinned title in state", async () => {
    const sdk = new Client({ apiUrl, callerOptions: { maxRetries: 0 } });
    const thread = await sdk.threads.create();
    const text = "Plan a weekend in Porto with good food";
    const first = (await sdk.runs.wait(thread.thread_id, "agent", {
      input: { messages: [{ type: "human", content: text }] },
    })) as { title: string; title_source: unknown };
    expect(first.title).toBe(fallbackTitle(text));
    expect(first.title_source).toEqual({ kind: "fallback" });

    await sdk.threads.updateState(thread.thread_id, { values: { title: "Porto ideas", title_source: { kind: "user" } } });
    const second = (await sdk.runs.wait(thread.thread_id, "agent", {
      input: { messages: [{ type: "human", content: "And where to stay?" }] },
    })) as { title: string; title_source: unknown };
    expect(second.title).toBe("Porto ideas");
    expect(second.title_source).toEqual({ kind: "user" });
  }, 60_000);
});
