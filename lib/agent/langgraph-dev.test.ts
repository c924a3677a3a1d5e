import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { fallbackTitle } from "@/lib/title";
import { startLanggraphDev, type LanggraphDevServer } from "./testing/langgraph-dev-server";
import { startLoopbackLLM, type LoopbackLLM } from "./testing/loopback-llm";

// The same graph (langgraph.json → lib/agent/graph.ts) served by `langgraph dev` instead of our
// Next.js API: titles must work there too, with the pin read from state (no registry).
let server: LanggraphDevServer | undefined;
let titled: LanggraphDevServer | undefined;
let llm: LoopbackLLM | undefined;

beforeAll(async () => {
  llm = await startLoopbackLLM();
  let n = 0;
  llm.script("lg-titles", () => ({ text: `Model title ${++n}` }));
  // A title model with the all-prompts cadence asks again after every message: only the pin in
  // state stops it from replacing a user's title, so the pin test below can fail.
  const titleEnv = { OPENAI_API_KEY: "sk-loopback", OPENAI_BASE_URL: llm.openaiBaseURL, TITLE_MODEL: "openai:lg-titles", TITLE_CADENCE: "all-prompts" };
  [server, titled] = await Promise.all([startLanggraphDev(), startLanggraphDev(titleEnv)]);
}, 180_000);

afterAll(async () => {
  server?.stop();
  titled?.stop();
  await llm?.close();
});

const ask = (sdk: Client, threadId: string, text: string) =>
  sdk.runs.wait(threadId, "agent", { input: { messages: [{ type: "human", content: text }] } }) as Promise<{ title: string; title_source: { kind: string } }>;

describe("the agent served by langgraph dev", () => {
  it("titles the first exchange on the local fallback (no title model)", async () => {
    const sdk = new Client({ apiUrl: server!.apiUrl, callerOptions: { maxRetries: 0 } });
    const thread = await sdk.threads.create();
    const text = "Plan a weekend in Porto with good food";
    const first = await ask(sdk, thread.thread_id, text);
    expect(first.title).toBe(fallbackTitle(text));
    expect(first.title_source).toEqual({ kind: "fallback" });
  }, 60_000);

  it("with a title model asking after every message, a title pinned in state is never replaced", async () => {
    const sdk = new Client({ apiUrl: titled!.apiUrl, callerOptions: { maxRetries: 0 } });
    const title = async (id: string) => (await sdk.threads.getState<{ title: string; title_source: { kind: string } }>(id)).values;
    const waitForModelTitle = async (id: string, before: string | null) => {
      for (let i = 0; i < 100; i++) {
        const v = await title(id);
        if (v.title_source?.kind === "model" && v.title !== before) return v.title;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no model title on ${id}`);
    };

    // Unpinned: the model names it, then names it again after the next message (the cadence works).
    const free = (await sdk.threads.create()).thread_id;
    await ask(sdk, free, "Plan a weekend in Porto with good food");
    const named = await waitForModelTitle(free, null);
    await ask(sdk, free, "And where to stay?");
    expect(await waitForModelTitle(free, named)).not.toBe(named);

    // Pinned after the first exchange: later messages ask no title and leave the user's title.
    const pinned = (await sdk.threads.create()).thread_id;
    await ask(sdk, pinned, "Recommend a beginner telescope");
    await waitForModelTitle(pinned, null);
    await sdk.threads.updateState(pinned, { values: { title: "Telescopes", title_source: { kind: "user" } } });
    const asked = llm!.requests.filter((r) => r.model === "lg-titles").length;
    await ask(sdk, pinned, "What about a tripod?");
    await ask(sdk, pinned, "And eyepieces?");
    await new Promise((r) => setTimeout(r, 500)); // a late title write would land by now
    expect(await title(pinned)).toMatchObject({ title: "Telescopes", title_source: { kind: "user" } });
    expect(llm!.requests.filter((r) => r.model === "lg-titles").length).toBe(asked);
  }, 120_000);
});
