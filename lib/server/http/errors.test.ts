import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ScriptedModel, createHarness, human, sleep, type Harness } from "../test-harness";

/**
 * A client's mistake is a 4xx with `{ detail }`, never a 5xx: the SDK retries 5xx answers, and a
 * retried run creation would start the run twice.
 */
let h: Harness;
let idle: string;
let busy: string;
let busyRun: string;

beforeAll(async () => {
  h = createHarness({ model: new ScriptedModel(["ok", "tok ".repeat(2000)], 5) });
  idle = (await h.client.threads.create()).thread_id;
  await h.client.runs.wait(idle, "agent", { input: human("hello") });
  busy = (await h.client.threads.create()).thread_id;
  busyRun = (await h.client.runs.create(busy, "agent", { input: human("long") })).run_id;
  await sleep(20);
});
afterAll(async () => h.close());

type Case = [name: string, method: string, path: () => string, body: unknown, status: number];
const J = (v: unknown) => JSON.stringify(v);
const RAW = (s: string) => ({ raw: s });

const BAD_MESSAGES: [string, unknown][] = [
  ["content a number", { role: "user", content: 5 }],
  ["content an object", { role: "user", content: {} }],
  ["a content block without a type", { type: "human", content: [{ text: "hi" }] }],
  ["a content block that is a number", { type: "human", content: [5] }],
  ["tool_calls not a list", { type: "ai", content: "x", tool_calls: "bad" }],
  ["id a number", { type: "human", content: "x", id: 5 }],
  ["additional_kwargs a string", { type: "human", content: "x", additional_kwargs: "s" }],
  ["no role or type", { content: "x" }],
  ["a serialized message whose content is a number", { lc: 1, type: "constructor", id: ["langchain_core", "messages", "HumanMessage"], kwargs: { content: 5 } }],
];

const cases: Case[] = [
  ["unknown thread", "GET", () => "/threads/nope", undefined, 404],
  ["patch unknown thread", "PATCH", () => "/threads/nope", { metadata: {} }, 404],
  ["delete unknown thread", "DELETE", () => "/threads/nope", undefined, 404],
  ["copy unknown thread", "POST", () => "/threads/nope/copy", undefined, 404],
  ["state of unknown thread", "GET", () => "/threads/nope/state", undefined, 404],
  ["rename unknown thread", "POST", () => "/threads/nope/state", { values: { title: "x" } }, 404],
  ["history of unknown thread", "POST", () => "/threads/nope/history", {}, 404],
  ["GET history of unknown thread", "GET", () => "/threads/nope/history", undefined, 404],
  ["run on unknown thread", "POST", () => "/threads/nope/runs/stream", { assistant_id: "agent", input: human("x") }, 404],
  ["unknown assistant", "POST", () => `/threads/${idle}/runs/stream`, { assistant_id: "other" }, 404],
  ["unknown run", "GET", () => `/threads/${idle}/runs/00000000-0000-4000-8000-000000000000`, undefined, 404],
  ["join unknown run", "GET", () => `/threads/${idle}/runs/nope/stream`, undefined, 404],
  ["wait on unknown run", "GET", () => `/threads/${idle}/runs/nope/join`, undefined, 404],
  ["join with an unknown stream_mode", "GET", () => `/threads/${busy}/runs/${busyRun}/stream?stream_mode=bogus`, undefined, 422],
  ["history from an unknown checkpoint", "POST", () => `/threads/${idle}/history`, { checkpoint: { checkpoint_id: "nope" } }, 404],
  ["history before an unknown checkpoint", "POST", () => `/threads/${idle}/history`, { before: "zzz" }, 404],
  ["GET history before an unknown checkpoint", "GET", () => `/threads/${idle}/history?before=zzz`, undefined, 404],
  ["cancel unknown run", "POST", () => `/threads/${idle}/runs/nope/cancel`, undefined, 404],
  ["run of another thread", "GET", () => `/threads/${idle}/runs/${busyRun}`, undefined, 404],
  ["unknown checkpoint", "GET", () => `/threads/${idle}/state/1f000000-0000-6000-8000-000000000000`, undefined, 404],
  ["unknown checkpoint (POST)", "POST", () => `/threads/${idle}/state/checkpoint`, { checkpoint: { checkpoint_id: "missing" } }, 404],
  ["run from unknown checkpoint", "POST", () => `/threads/${idle}/runs/wait`, { assistant_id: "agent", checkpoint_id: "missing" }, 404],
  ["unknown assistant (GET)", "GET", () => "/assistants/other", undefined, 404],
  ["unknown route", "GET", () => "/nowhere", undefined, 404],
  ["wrong method", "PUT", () => "/threads", {}, 405],
  ["malformed JSON", "POST", () => `/threads/${idle}/runs/stream`, RAW("{"), 422],
  ["array body", "POST", () => "/threads", RAW("[1,2]"), 422],
  ["assistant_id wrong type", "POST", () => `/threads/${idle}/runs/stream`, { assistant_id: 5 }, 422],
  ["missing assistant_id", "POST", () => `/threads/${idle}/runs`, { input: human("x") }, 422],
  ["bad stream_mode", "POST", () => `/threads/${idle}/runs/stream`, { assistant_id: "agent", stream_mode: "bogus" }, 422],
  ["bad multitask_strategy", "POST", () => `/threads/${idle}/runs`, { assistant_id: "agent", multitask_strategy: "yolo" }, 422],
  ["after_seconds unsupported", "POST", () => `/threads/${idle}/runs`, { assistant_id: "agent", after_seconds: 10 }, 422],
  ["bad input type", "POST", () => `/threads/${idle}/runs/wait`, { assistant_id: "agent", input: "hello" }, 422],
  ["bad cancel action", "POST", () => `/threads/${idle}/runs/${busyRun}/cancel?action=explode`, undefined, 422],
  ["bad runs limit", "GET", () => `/threads/${idle}/runs?limit=abc`, undefined, 422],
  ["bad thread_id", "POST", () => "/threads", { thread_id: "../etc" }, 422],
  ["metadata not an object", "POST", () => "/threads", { metadata: "x" }, 422],
  ["metadata key like a search operator", "POST", () => "/threads", { metadata: { $title_search: "x" } }, 422],
  ["metadata key empty", "POST", () => "/threads", { metadata: { "": 1 } }, 422],
  ["patch metadata key like a search operator", "PATCH", () => `/threads/${idle}`, { metadata: { $as_of: "2026-01-01" } }, 422],
  ["bad if_exists", "POST", () => "/threads", { if_exists: "maybe" }, 422],
  ["negative limit", "POST", () => "/threads/search", { limit: -1 }, 422],
  ["string limit", "POST", () => "/threads/search", { limit: "10" }, 422],
  ["bad sort_by", "POST", () => "/threads/search", { sort_by: "title" }, 422],
  ["bad select", "POST", () => "/threads/search", { select: ["nope"] }, 422],
  ["bad extract path", "POST", () => "/threads/search", { extract: { t: "title" } }, 422],
  ["unsafe metadata key", "POST", () => "/threads/search", { metadata: { 'a"b': 1 } }, 422],
  ["unknown $ filter", "POST", () => "/threads/search", { metadata: { $where: 1 } }, 422],
  ["non-string $title_search", "POST", () => "/threads/search", { metadata: { $title_search: 5 } }, 422],
  ["ids not a list", "POST", () => "/threads/search", { ids: "x" }, 422],
  ["bad count status", "POST", () => "/threads/count", { status: "sleepy" }, 422],
  ["values not an object", "POST", () => `/threads/${idle}/state`, { values: "x" }, 422],
  ["unknown as_node", "POST", () => `/threads/${idle}/state`, { values: { messages: [] }, as_node: "nope" }, 422],
  ["checkpoint missing", "POST", () => `/threads/${idle}/state/checkpoint`, {}, 422],
  ["history limit 0", "POST", () => `/threads/${idle}/history`, { limit: 0 }, 422],
  ["history before wrong type", "POST", () => `/threads/${idle}/history`, { before: 5 }, 422],
  ["assistants search garbage", "POST", () => "/assistants/search", RAW("garbage"), 422],
  ["run while busy (reject)", "POST", () => `/threads/${busy}/runs`, { assistant_id: "agent", input: human("x") }, 409],
  ["state update while busy", "POST", () => `/threads/${busy}/state`, { values: { messages: [] } }, 409],
  ["regenerate while busy", "POST", () => `/threads/${busy}/title/regenerate`, undefined, 409],
  ["duplicate thread", "POST", () => "/threads", () => ({ thread_id: idle }), 409],
  // Messages the graph could not run on: refused at the door, not a failed run that keeps them.
  ...BAD_MESSAGES.map(([name, message]): Case => [`run input: ${name}`, "POST", () => `/threads/${idle}/runs/wait`, { assistant_id: "agent", input: { messages: [message] } }, 422]),
  ...BAD_MESSAGES.map(([name, message]): Case => [`state update: ${name}`, "POST", () => `/threads/${idle}/state`, { values: { messages: [message] } }, 422]),
  ["command.update: content a number", "POST", () => `/threads/${idle}/runs/wait`, { assistant_id: "agent", command: { update: { messages: [{ type: "human", content: 5 }] } } }, 422],
  ["run input: a single bad message", "POST", () => `/threads/${idle}/runs/wait`, { assistant_id: "agent", input: { messages: { role: "user", content: {} } } }, 422],
];

describe("client mistakes never cause a 5xx", () => {
  it.each(cases)("%s (%s)", async (_name, method, path, body, status) => {
    const payload = typeof body === "function" ? (body as () => unknown)() : body;
    const init: RequestInit = { method, headers: { "content-type": "application/json" } };
    if (payload !== undefined) init.body = (payload as { raw?: string }).raw ?? J(payload);
    const res = await h.fetch(path(), init);
    const json = (await res.json()) as { detail?: unknown };
    expect(res.status).toBe(status);
    expect(typeof json.detail).toBe("string");
  });

  it("the refused messages changed nothing: the idle thread still holds its one exchange and no failed run", async () => {
    const state = await h.client.threads.getState<{ messages: { content: unknown }[] }>(idle);
    expect(state.values.messages.map((m) => m.content)).toEqual(["hello", "ok"]);
    const runs = await h.client.runs.list(idle);
    expect(runs.map((r) => r.status)).toEqual(["success"]);
  });

  it("a run refused for an unknown checkpoint makes no thread, though it asked for one (if_not_exists: create)", async () => {
    const id = crypto.randomUUID();
    for (const path of [`/threads/${id}/runs`, `/threads/${id}/runs/wait`, `/threads/${id}/runs/stream`]) {
      const res = await h.fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: J({ assistant_id: "agent", if_not_exists: "create", checkpoint_id: "does-not-exist", input: { messages: [{ type: "human", content: "hi" }] } }) });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/Checkpoint does-not-exist/);
    }
    expect((await h.fetch(`/threads/${id}`)).status).toBe(404);
    expect((await h.client.threads.search({ ids: [id] })).length).toBe(0);
  });

  it("the busy thread's run was not disturbed by any of it", async () => {
    expect((await h.client.runs.get(busy, busyRun)).status).toBe("running");
    await h.client.runs.cancel(busy, busyRun, true);
  });
});

describe("errors from inside are never told as the client's mistake", () => {
  it("a ZodError raised by our own code (e.g. the graph's state schema) is a generic 500 without its text", async () => {
    const { z } = await import("zod");
    const { errorResponse } = await import("./errors");
    const internal = z.object({ title_source: z.object({ kind: z.enum(["fallback", "model", "user"]) }) }).safeParse({ title_source: { kind: "robot" } });
    expect(internal.success).toBe(false);
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = errorResponse(internal.error);
    spy.mockRestore();
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({ detail: "Internal server error" });
    expect(JSON.stringify(body)).not.toContain("title_source");
  });
});

describe("message shapes a client may send are accepted", () => {
  it("a LangChain-serialized message (new HumanMessage through the SDK), a [role, text] pair, a string, typed content blocks, and an AI message that only calls tools", async () => {
    const t = await h.client.threads.create();
    const serialized = { lc: 1, type: "constructor", id: ["langchain_core", "messages", "HumanMessage"], kwargs: { content: "Serialized hello", id: "m-1" } };
    await h.client.runs.wait(t.thread_id, "agent", { input: { messages: [serialized] } });
    await h.client.runs.wait(t.thread_id, "agent", { input: { messages: [["user", "A pair"], "A string", { type: "human", content: [{ type: "text", text: "Blocks" }, "and a string block"] }] } });
    const update = await h.fetch(`/threads/${t.thread_id}/state`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: J({ values: { messages: [{ type: "ai", content: null, tool_calls: [{ id: "call_1", name: "lookup", args: { q: "x" } }] }, { type: "tool", content: "found", tool_call_id: "call_1" }] } }),
    });
    expect(update.status).toBe(200);
    const state = await h.client.threads.getState<{ title: string; messages: { type: string }[] }>(t.thread_id);
    expect(state.values.title).toBe("Serialized hello");
    expect(state.values.messages.map((m) => m.type)).toEqual(["human", "ai", "human", "human", "human", "ai", "ai", "tool"]);
  });
});
