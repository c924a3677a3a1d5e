import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AIMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "langchain";
import { z } from "zod";
import { titlerFromEnv, TITLE_FAILURE_PREFIX } from "@/lib/agent";
import { startLoopbackLLM, type LoopbackLLM, type RecordedRequest, type ScriptedReply } from "@/lib/agent/testing/loopback-llm";
import { DEFAULT_TITLE_CONFIG, attachmentsTitle, fallbackTitle, type TitleConfig } from "@/lib/title";
import type { TitleRequestRow } from "../store/queries";
import { ScriptedModel, collect, createHarness, human, sleep, type Harness } from "../test-harness";

/**
 * The LLM title path end to end: the real @langchain/openai and @langchain/anthropic clients (built
 * from env by initChatModel) talk to loopback servers speaking each wire protocol; the real graph
 * runs on a SQLite file (Postgres in the Postgres pass) behind our handler; the official SDK
 * drives it and reads the stream.
 */
type Part = { event: string; data: unknown; id?: string };

let llm: LoopbackLLM;
let h: Harness | undefined;
const ANSWER = "Sure, here is an answer for you.";

beforeAll(async () => {
  llm = await startLoopbackLLM();
});
afterAll(() => llm.close());
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.restoreAllMocks();
});

const PROVIDERS = {
  openai: (model: string) => ({ OPENAI_API_KEY: "sk-loopback", OPENAI_BASE_URL: llm.openaiBaseURL, TITLE_MODEL: `openai:${model}` }),
  anthropic: (model: string) => ({ ANTHROPIC_API_KEY: "sk-ant-loopback", ANTHROPIC_BASE_URL: llm.anthropicBaseURL, TITLE_MODEL: `anthropic:${model}` }),
} as const;
type ProviderName = keyof typeof PROVIDERS;

let modelSeq = 0;
/** A fresh title-model name per test, so its requests are told apart on the shared loopback server. */
async function setup(provider: ProviderName, reply: ScriptedReply | ((r: RecordedRequest) => ScriptedReply), opts: { config?: Partial<TitleConfig>; chatDelayMs?: number; harness?: Parameters<typeof createHarness>[0] } = {}) {
  const modelName = `title-${provider}-${++modelSeq}`;
  llm.script(modelName, reply);
  const config: TitleConfig = { ...DEFAULT_TITLE_CONFIG, timeout_ms: 2000, ...opts.config };
  const titler = await titlerFromEnv(PROVIDERS[provider](modelName), config);
  h = createHarness({ model: new ScriptedModel([ANSWER], opts.chatDelayMs ?? 5), titleConfig: config, titler, ...opts.harness });
  const titleRequests = () => llm.requests.filter((r) => r.model === modelName);
  return { h, modelId: `${provider}:${modelName}`, titleRequests };
}

async function firstRun(harness: Harness, text: string) {
  const t = await harness.client.threads.create();
  const parts = (await collect(harness.client.runs.stream(t.thread_id, "agent", { input: human(text), streamMode: ["values", "messages-tuple", "updates"] }))) as Part[];
  const state = await harness.client.threads.getState<{ title: string; title_source: { kind: string; model?: string } }>(t.thread_id);
  const audit = (await (await harness.fetch(`/threads/${t.thread_id}/title/requests`)).json()) as TitleRequestRow[];
  return { threadId: t.thread_id, parts, state, audit };
}

const streamedText = (parts: Part[]) =>
  parts
    .filter((p) => p.event === "messages")
    .map((p) => ((p.data as [{ content?: unknown }])[0]?.content as string) ?? "")
    .join("");

/** The request's user text as the provider received it. */
function sentUserText(r: RecordedRequest): string {
  const messages = r.body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1)!;
  return typeof last.content === "string" ? last.content : (last.content as { text: string }[]).map((c) => c.text).join("");
}

const TRIP = "Plan a weekend trip to Lisbon with two kids";
const ZH = "帮我规划一次去里斯本的周末旅行";

interface Case {
  name: string;
  user: string;
  reply: ScriptedReply;
  title: string;
  kind: "model" | "fallback";
  outcome: "accepted" | "rejected" | "error" | "timeout";
  config?: Partial<TitleConfig>;
}

const CASES: Case[] = [
  { name: "a good title", user: TRIP, reply: { text: "Lisbon Weekend With Kids" }, title: "Lisbon Weekend With Kids", kind: "model", outcome: "accepted" },
  { name: "a quoted title", user: TRIP, reply: { text: '"Lisbon Family Weekend"' }, title: "Lisbon Family Weekend", kind: "model", outcome: "accepted" },
  { name: "a markdown title", user: TRIP, reply: { text: "**Lisbon Family Weekend**" }, title: "Lisbon Family Weekend", kind: "model", outcome: "accepted" },
  { name: "a Title:-prefixed title", user: TRIP, reply: { text: "Title: Lisbon Family Weekend" }, title: "Lisbon Family Weekend", kind: "model", outcome: "accepted" },
  { name: "a closed think block", user: TRIP, reply: { text: "<think>They want a family trip.</think>Lisbon Family Weekend" }, title: "Lisbon Family Weekend", kind: "model", outcome: "accepted" },
  { name: "an unclosed think block", user: TRIP, reply: { text: "<think>The user wants a trip to Lisbon so the title" }, title: fallbackTitle(TRIP), kind: "fallback", outcome: "rejected" },
  { name: "a refusal", user: TRIP, reply: { text: "I'm sorry, but I can't help with that." }, title: fallbackTitle(TRIP), kind: "fallback", outcome: "rejected" },
  { name: "an answer instead of a title", user: TRIP, reply: { text: "Sure! Here is a plan for your weekend in Lisbon. Day one: Belem." }, title: fallbackTitle(TRIP), kind: "fallback", outcome: "rejected" },
  // 1,500 streamed chunks: on a loaded 2-core machine reading them can pass the 2 s default bound
  // (outcome "timeout"); this case is about rejecting the reply, so it gets room to arrive whole.
  { name: "a 10 kB reply", user: TRIP, reply: { text: "lisbon ".repeat(1500) }, title: fallbackTitle(TRIP), kind: "fallback", outcome: "rejected", config: { timeout_ms: 10_000 } },
  { name: "a title in the wrong script", user: ZH, reply: { text: "Lisbon Weekend Trip" }, title: fallbackTitle(ZH), kind: "fallback", outcome: "rejected" },
  { name: "a Chinese title for a Chinese message", user: ZH, reply: { text: "里斯本周末旅行计划" }, title: "里斯本周末旅行计划", kind: "model", outcome: "accepted" },
  { name: "HTTP 500", user: TRIP, reply: { status: 500 }, title: fallbackTitle(TRIP), kind: "fallback", outcome: "error" },
  { name: "a hang past the timeout", user: TRIP, reply: { hang: true }, title: fallbackTitle(TRIP), kind: "fallback", outcome: "timeout", config: { timeout_ms: 400 } },
  { name: "a malformed reply", user: TRIP, reply: { malformed: true }, title: fallbackTitle(TRIP), kind: "fallback", outcome: "error" },
];

describe.each(Object.keys(PROVIDERS) as ProviderName[])("model titles through %s", (provider) => {
  it.each(CASES)("$name → $kind title", async (c) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { h, modelId, titleRequests } = await setup(provider, c.reply, { config: c.config });
    const { parts, state, audit } = await firstRun(h, c.user);

    expect(state.values.title).toBe(c.title);
    expect(state.values.title_source).toEqual(c.kind === "model" ? { kind: "model", model: modelId } : { kind: "fallback" });
    // The answer streamed whole and untouched, from exactly one chat-model call.
    expect(streamedText(parts)).toBe(ANSWER);
    expect(h.model.calls).toBe(1);
    // No piece of the title call in the stream: no messages/updates event carries the raw reply
    // (the accepted title itself rides in the `title` state key of values/updates, as it should).
    const raw = "text" in c.reply ? c.reply.text : null;
    if (raw) {
      const probe = raw.slice(0, 24);
      const withoutTitle = (data: unknown) => JSON.stringify(data, (k, v) => (k === "title" ? undefined : v));
      for (const p of parts.filter((x) => x.event !== "values")) expect(withoutTitle(p.data)).not.toContain(probe);
    }
    expect(parts.filter((p) => p.event === "messages").every((p) => !JSON.stringify(p.data).includes("title-"))).toBe(true);
    // Exactly one title request, asking for a short, reasoning-free reply from a capped prompt.
    const reqs = titleRequests();
    expect(reqs).toHaveLength(1);
    const body = reqs[0].body;
    expect(body.max_tokens ?? body.max_completion_tokens).toBe(DEFAULT_TITLE_CONFIG.max_output_tokens);
    expect(body.reasoning_effort).toBeUndefined();
    if (provider === "anthropic") expect(body.thinking).toEqual({ type: "disabled" });
    expect(sentUserText(reqs[0])).toContain(c.user);
    // The audit says what was sent and how it ended.
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ model: modelId, purpose: "first", outcome: c.outcome, max_tokens: DEFAULT_TITLE_CONFIG.max_output_tokens });
    expect(audit[0].user).toBe(sentUserText(reqs[0]));
    const sentSystem = (body.system as string | undefined) ?? (body.messages as { role: string; content: string }[]).find((m) => m.role === "system")?.content;
    expect(audit[0].system).toBe(sentSystem);
    expect(audit[0].system).toMatch(/JSON/);
    expect(audit[0].title).toBe(c.kind === "model" ? c.title : null);
    expect(audit[0].reason === null).toBe(c.outcome === "accepted");
    expect(audit[0].latency_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(audit[0].at)).not.toBeNaN();
    // A failure is one warning line, never a failed run.
    const failures = warn.mock.calls.map((a) => String(a[0])).filter((l) => l.startsWith(TITLE_FAILURE_PREFIX));
    expect(failures).toHaveLength(c.outcome === "accepted" ? 0 : 1);
    expect((await h.client.runs.list((await h.client.threads.search())[0].thread_id))[0].status).toBe("success");
  });
});

describe("the title call's timing and count", () => {
  it("never delays the answer: the first token arrives long before a title model that takes 2 s", async () => {
    // The answer's first token takes 60 ms, as any real model's does: the title request leaves
    // before the model node runs, so it arrives first. (With a 5 ms model the two were racing
    // over loopback sockets, and which won said nothing about the order they were started in.)
    const { h, titleRequests } = await setup("openai", { text: "Slow Lisbon Title", delayMs: 2000 }, { config: { timeout_ms: 5000 }, chatDelayMs: 60 });
    const t = await h.client.threads.create();
    const started = Date.now();
    let firstToken = 0;
    let modelTitleAt = 0;
    for await (const p of h.client.runs.stream(t.thread_id, "agent", { input: human(TRIP), streamMode: ["values", "messages-tuple"] })) {
      if (p.event === "messages" && !firstToken) firstToken = Date.now() - started;
      if (p.event === "values" && (p.data as { title?: string }).title === "Slow Lisbon Title" && !modelTitleAt) modelTitleAt = Date.now() - started;
    }
    // Orderings, not speeds: the call was sent before the first answer token (in parallel with the
    // answer, from the user's message), the token did not wait for the 2 s reply, and the run did.
    expect(firstToken).toBeGreaterThan(0);
    expect(titleRequests()[0].at - started).toBeLessThanOrEqual(firstToken);
    expect(firstToken).toBeLessThan(2000);
    expect(modelTitleAt).toBeGreaterThanOrEqual(2000);
  });

  it("a rename made while the call is in flight wins", async () => {
    const { h, titleRequests } = await setup("anthropic", { text: "Model Title Too Late", delayMs: 800 }, { config: { timeout_ms: 3000 } });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human(TRIP) });
    while (titleRequests().length === 0) await sleep(10);
    await h.client.threads.updateState(t.thread_id, { values: { title: "My own name" } });
    await h.client.runs.join(t.thread_id, run.run_id);
    const state = await h.client.threads.getState<{ title: string; title_source: unknown }>(t.thread_id);
    expect(state.values).toMatchObject({ title: "My own name", title_source: { kind: "user" } });
    const audit = (await (await h.fetch(`/threads/${t.thread_id}/title/requests`)).json()) as TitleRequestRow[];
    expect(audit.map((a) => a.outcome)).toEqual(["accepted"]);
    const [thread] = await h.client.threads.search({ metadata: { $title_search: "own name" } });
    expect(thread?.thread_id).toBe(t.thread_id);
  });

  it("asks once per conversation, however many model and tool steps a run takes, and not again on a second run", async () => {
    const lookup = tool(async ({ q }: { q: string }) => `found ${q}`, { name: "lookup", description: "Looks something up", schema: z.object({ q: z.string() }) });
    const chat = fakeModel()
      .respondWithTools([{ name: "lookup", args: { q: "trains" }, id: "call_1" }])
      .respondWithTools([{ name: "lookup", args: { q: "hotels" }, id: "call_2" }])
      .respond(new AIMessage("Here is the plan."))
      .respond(new AIMessage("And the second answer."));
    const { h, titleRequests } = await setup("openai", { text: "Lisbon Family Weekend" }, { harness: { chatModel: chat, tools: [lookup] } });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human(TRIP) });
    expect(chat.calls).toHaveLength(3);
    expect(titleRequests()).toHaveLength(1);
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Lisbon Family Weekend");
    await h.client.runs.wait(t.thread_id, "agent", { input: human("What about Porto?") });
    expect(titleRequests()).toHaveLength(1);
  });

  it("asks once for a thread whose first run brings two user messages, from the first, as a first title", async () => {
    const { h, titleRequests } = await setup("openai", { text: "Kyoto In April" });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: { messages: [{ type: "human", content: TRIP }, { type: "human", content: "We travel in April" }] } });
    expect(titleRequests()).toHaveLength(1);
    expect(JSON.stringify(titleRequests()[0].body)).toContain(TRIP.slice(0, 40));
    expect((await h.client.threads.getState<{ title: string; title_source: { kind: string } }>(t.thread_id)).values).toMatchObject({ title: "Kyoto In April", title_source: { kind: "model" } });
    const audit = (await (await h.fetch(`/threads/${t.thread_id}/title/requests`)).json()) as TitleRequestRow[];
    expect(audit.map((r) => r.purpose)).toEqual(["first"]);
    await h.client.runs.wait(t.thread_id, "agent", { input: human("What about Osaka?") });
    expect(titleRequests()).toHaveLength(1);
  });

  it("with a custom template that uses {assistant_msg}, asks after the first answer and sends it", async () => {
    const { h, titleRequests } = await setup("openai", { text: "Lisbon Family Weekend" }, {
      config: { prompt_template: "Title in {max_words} words. User: {user_msg} Assistant: {assistant_msg}" },
    });
    const { state } = await firstRun(h, TRIP);
    expect(state.values.title).toBe("Lisbon Family Weekend");
    const [req] = titleRequests();
    expect(sentUserText(req)).toBe(`Title in 6 words. User: ${TRIP} Assistant: ${ANSWER}`);
    expect((req.body.messages as unknown[]).length).toBe(1);
  });

  it("caps what it sends: a 5,000-character first message reaches the model as at most 500", async () => {
    const long = `Lisbon ${"and more details ".repeat(320)}`;
    const { h, titleRequests } = await setup("openai", { text: "Lisbon Details" });
    await firstRun(h, long);
    const sent = sentUserText(titleRequests()[0]);
    expect(sent.length).toBeLessThan(1200);
    expect(sent).toContain("Lisbon and more details");
  });

  it("with all-prompts cadence, refreshes the title after each new message unless pinned", async () => {
    let n = 0;
    const { h, titleRequests } = await setup("openai", () => ({ text: ["Lisbon Trip", "Porto Trip", "Never Applied"][n++] }), { config: { cadence: "all-prompts" } });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human(TRIP) });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Actually, let's go to Porto instead") });
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Porto Trip");
    expect(sentUserText(titleRequests()[1])).toContain("Porto instead");
    await h.client.threads.updateState(t.thread_id, { values: { title: "Pinned" } });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("And Faro?") });
    expect(titleRequests()).toHaveLength(2);
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Pinned");
  });
});

describe("Let AI name this, the audit route and deletion", () => {
  it("regenerate asks the title model from the first message and the latest exchange; the audit lists both requests", async () => {
    let n = 0;
    const { h, modelId, titleRequests } = await setup("openai", () => ({ text: ["Lisbon Trip", "Porto Food Guide"][n++] }));
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human(TRIP) });
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Where should we eat in Porto?") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Pinned" } });
    const res = await h.fetch(`/threads/${t.thread_id}/title/regenerate`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: "Porto Food Guide", title_source: { kind: "model", model: modelId } });
    const sent = sentUserText(titleRequests()[1]);
    expect(sent).toContain(TRIP);
    expect(sent).toContain("Where should we eat in Porto?");
    const audit = (await (await h.fetch(`/threads/${t.thread_id}/title/requests`)).json()) as TitleRequestRow[];
    expect(audit.map((a) => [a.purpose, a.outcome])).toEqual([["regenerate", "accepted"], ["first", "accepted"]]);

    await h.client.threads.delete(t.thread_id);
    expect((await h.fetch(`/threads/${t.thread_id}/title/requests`)).status).toBe(404);
    const [{ n: audits }] = await h.sql(`SELECT COUNT(*) AS n FROM tl_title_requests WHERE thread_id = '${t.thread_id}'`);
    expect(Number(audits)).toBe(0);
  });

  it("regenerate changes nothing when the model fails (502, the pin stays); the automatic first title still falls back", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { h } = await setup("anthropic", { status: 500 });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human(TRIP) });
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe(fallbackTitle(TRIP));
    await h.client.threads.updateState(t.thread_id, { values: { title: "Pinned by me" } });
    const res = await h.fetch(`/threads/${t.thread_id}/title/regenerate`, { method: "POST" });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^title-model-failed: .*unchanged$/);
    const state = await h.client.threads.getState<{ title: string; title_source: unknown }>(t.thread_id);
    expect(state.values).toMatchObject({ title: "Pinned by me", title_source: { kind: "user" } });
    const audit = (await (await h.fetch(`/threads/${t.thread_id}/title/requests`)).json()) as TitleRequestRow[];
    expect(audit.map((a) => [a.purpose, a.outcome])).toEqual([["regenerate", "error"], ["first", "error"]]);
  });

  it("a message sent while a slow regenerate asks the model starts at once (409 thread-changed); a rename made meanwhile stays, also renamed and back (409 title-changed)", async () => {
    let n = 0;
    const { h, titleRequests } = await setup("openai", () => (n++ === 0 ? { text: "Lisbon Trip" } : { text: "Too Late Title", delayMs: 4000 }), { config: { timeout_ms: 8000 } });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human(TRIP) });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Pinned" } });

    // A message while the model is asked: its run streams its first event long before the reply.
    let regenerateSettled = 0;
    const regenerate = h.fetch(`/threads/${t.thread_id}/title/regenerate`, { method: "POST" }).finally(() => (regenerateSettled = performance.now()));
    while (titleRequests().length < 2) await sleep(10);
    let firstEvent = 0;
    for await (const p of h.client.runs.stream(t.thread_id, "agent", { input: human("And in Porto?"), streamMode: ["values"] })) {
      if (p.event === "values" && !firstEvent) firstEvent = performance.now();
    }
    const res = await regenerate;
    // The run's first event came while the 4 s title call was still out, not with the
    // regenerate's end (before, the run waited for the whole regenerate, model reply included).
    expect(firstEvent).toBeGreaterThan(0);
    expect(regenerateSettled - firstEvent).toBeGreaterThan(500);
    // The run ended before the model replied: the title made from the conversation before it is
    // not written over the pin.
    expect(res.status).toBe(409);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^thread-changed: /);
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Pinned");

    // A rename while the model is asked: the rename is newer, it stays.
    await h.client.threads.updateState(t.thread_id, { values: { title: "Pinned again" } });
    const second = h.fetch(`/threads/${t.thread_id}/title/regenerate`, { method: "POST" });
    while (titleRequests().length < 3) await sleep(10);
    await h.client.threads.updateState(t.thread_id, { values: { title: "Renamed meanwhile" } });
    const late = await second;
    expect(late.status).toBe(409);
    expect(((await late.json()) as { detail: string }).detail).toMatch(/^title-changed: /);
    const state = await h.client.threads.getState<{ title: string; title_source: unknown }>(t.thread_id);
    expect(state.values).toMatchObject({ title: "Renamed meanwhile", title_source: { kind: "user" } });

    // Renamed and renamed back while the model is asked: the same title, but the user wrote it
    // meanwhile and no message came, so it is title-changed too (the conversation did not move on).
    const again = h.fetch(`/threads/${t.thread_id}/title/regenerate`, { method: "POST" });
    while (titleRequests().length < 4) await sleep(10);
    await h.client.threads.updateState(t.thread_id, { values: { title: "Briefly this" } });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Renamed meanwhile" } });
    const back = await again;
    expect(back.status).toBe(409);
    expect(((await back.json()) as { detail: string }).detail).toMatch(/^title-changed: /);
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Renamed meanwhile");

    // Deleted while the model is asked: 404, as for any request about a deleted thread.
    const third = h.fetch(`/threads/${t.thread_id}/title/regenerate`, { method: "POST" });
    while (titleRequests().length < 5) await sleep(10);
    await h.client.threads.delete(t.thread_id);
    expect((await third).status).toBe(404);
  });

  it("titles an attachment-only first message from its file names, with no title call; with text, sends names and kinds, never bytes", async () => {
    const { h, titleRequests } = await setup("openai", { text: "Quarterly Report Review" });
    const pdf = { type: "file", mimeType: "application/pdf", data: Buffer.from("%PDF-1.4 secret bytes").toString("base64"), metadata: { filename: "report.pdf" } };
    const png = { type: "image", mimeType: "image/png", data: Buffer.from("png secret bytes").toString("base64"), metadata: { filename: "chart.png" } };
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: { messages: [{ type: "human", content: [pdf, png] }] } });
    const state = await h.client.threads.getState<{ title: string; title_source: unknown }>(t.thread_id);
    const expected = attachmentsTitle([{ name: "report.pdf", kind: "pdf" }, { name: "chart.png", kind: "image" }], DEFAULT_TITLE_CONFIG);
    expect(expected).toContain("report.pdf");
    expect(state.values).toMatchObject({ title: expected, title_source: { kind: "fallback" } });
    expect(titleRequests()).toHaveLength(0);

    const t2 = await h.client.threads.create();
    await h.client.runs.wait(t2.thread_id, "agent", { input: { messages: [{ type: "human", content: [{ type: "text", text: "Summarise this for the board" }, pdf] }] } });
    expect((await h.client.threads.getState<{ title: string }>(t2.thread_id)).values.title).toBe("Quarterly Report Review");
    const sent = JSON.stringify(titleRequests()[0].body);
    expect(sent).toContain("report.pdf");
    expect(sent).not.toContain(pdf.data);
  });

  it("makes no title request at all without a title model", async () => {
    const before = llm.requests.length;
    h = createHarness();
    await firstRun(h, TRIP);
    expect(llm.requests.length).toBe(before);
  });
});
