import { afterEach, describe, expect, it, vi } from "vitest";
import { createModelTitler } from "@/lib/agent";
import { DEFAULT_TITLE_CONFIG } from "@/lib/title";
import { ScriptedModel, collect, createHarness, human, sleep, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => h?.close());

type Part = { event: string; data: unknown; id?: string };
const titleOf = (p: Part) => (p.data as { title?: string | null })?.title ?? null;

async function waitForStatus(threadId: string, runId: string, status: string) {
  for (let i = 0; i < 200; i++) {
    if ((await h.client.runs.get(threadId, runId)).status === status) return;
    await sleep(10);
  }
  throw new Error(`run never reached ${status}`);
}

describe("runs/stream wire format", () => {
  it("sends metadata first, an id on every event, and the title in values before the first token", async () => {
    h = createHarness({ model: new ScriptedModel(["Lisbon is lovely in spring."], 2) });
    const t = await h.client.threads.create();
    let created: { run_id: string } | undefined;
    const parts = (await collect(
      h.client.runs.stream(t.thread_id, "agent", {
        input: human("Plan a trip to Lisbon"),
        streamMode: ["values", "messages-tuple"],
        onRunCreated: (m) => (created = m),
      }),
    )) as Part[];
    expect(parts[0].event).toBe("metadata");
    expect(parts[0].data).toEqual({ run_id: created?.run_id, thread_id: t.thread_id, attempt: 1 });
    expect(parts.every((p, i) => p.id === String(i))).toBe(true);
    const firstTitle = parts.findIndex((p) => p.event === "values" && titleOf(p) === "Plan a trip to Lisbon");
    const firstToken = parts.findIndex((p) => p.event === "messages");
    expect(firstTitle).toBeGreaterThan(0);
    expect(firstToken).toBeGreaterThan(firstTitle);
    const [msg, meta] = parts[firstToken].data as [{ type: string; content: string; id: string }, Record<string, unknown>];
    expect(msg).toMatchObject({ type: "ai", content: "Lisbon " });
    expect(meta.langgraph_node).toBe("model_request");
    expect(parts.filter((p) => p.event === "error")).toEqual([]);
    expect(h.model.calls).toBe(1);
    const run = await h.client.runs.get(t.thread_id, created!.run_id);
    expect(run.status).toBe("success");
    expect((await h.client.threads.get(t.thread_id)).status).toBe("idle");
  });

  it("sends the headers useStream and the SDK rely on", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    const post = (body: object) =>
      h.fetch(`/threads/${t.thread_id}/runs/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ assistant_id: "agent", input: human("hi"), ...body }) });
    const res = await post({ stream_resumable: true });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    const loc = res.headers.get("content-location")!;
    expect(loc).toMatch(new RegExp(`^/threads/${t.thread_id}/runs/[0-9a-f-]{36}$`));
    expect(res.headers.get("location")).toBe(`${loc}/stream`);
    const text = await res.text();
    expect(text.startsWith("event: metadata\ndata: {")).toBe(true);
    expect(text).toMatch(/\nid: 0\n\n/);
    const plain = await post({});
    expect(plain.headers.get("location")).toBeNull();
    expect(plain.headers.get("content-location")).toMatch(/\/runs\//);
    await plain.text();
  });

  it("emits updates; a failing model ends the stream with error {error, message}, and the server log says so", async () => {
    h = createHarness({ model: new ScriptedModel(["__throw__"]) });
    const t = await h.client.threads.create();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const parts = (await collect(h.client.runs.stream(t.thread_id, "agent", { input: human("Break please"), streamMode: ["updates", "values"] }))) as Part[];
    const lines = logged.mock.calls.filter(([first]) => typeof first === "string" && first.startsWith("[runs] run "));
    logged.mockRestore();
    expect(lines).toHaveLength(1);
    expect(lines[0][0]).toContain(`(thread ${t.thread_id}) failed:`);
    expect(String(lines[0][1])).toContain("model exploded");
    expect(parts.some((p) => p.event === "updates")).toBe(true);
    const err = parts.at(-1)!;
    expect(err.event).toBe("error");
    expect(err.data).toMatchObject({ error: "Error", message: expect.stringContaining("model exploded") });
    expect((await h.client.threads.get(t.thread_id)).status).toBe("error");
    const [run] = await h.client.runs.list(t.thread_id);
    expect(run.status).toBe("error");
    // The title still landed (instant title, before the model failed).
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Break please");
  });

  it("does not leak nested model calls tagged langsmith:nostream into the messages stream", async () => {
    const titleModel = new ScriptedModel(["SECRET TITLE TOKENS"]);
    h = createHarness({
      titleConfig: { ...DEFAULT_TITLE_CONFIG, instant: false },
      titler: createModelTitler({ model: titleModel, modelId: "scripted:title", config: { ...DEFAULT_TITLE_CONFIG, instant: false } }),
    });
    const t = await h.client.threads.create();
    const parts = (await collect(h.client.runs.stream(t.thread_id, "agent", { input: human("Hello"), streamMode: ["messages-tuple", "values"] }))) as Part[];
    expect(titleModel.calls).toBe(1);
    const streamed = parts.filter((p) => p.event === "messages").map((p) => JSON.stringify(p.data));
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.some((s) => s.includes("SECRET"))).toBe(false);
    expect(titleOf(parts.filter((p) => p.event === "values").at(-1)!)).toBe("SECRET TITLE TOKENS");
  });
});

describe("join and replay", () => {
  it("replays a run's buffer from Last-Event-ID, live and after the end", async () => {
    h = createHarness({ model: new ScriptedModel(["one two three four five six"], 15) });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Join me"), streamMode: ["values", "messages-tuple"] });
    const live = (await collect(h.client.runs.joinStream(t.thread_id, run.run_id, { lastEventId: "-1" }))) as Part[];
    expect(live[0].event).toBe("metadata");
    expect(live.filter((p) => p.event === "messages")).toHaveLength(6);
    const after = (await collect(h.client.runs.joinStream(t.thread_id, run.run_id, { lastEventId: live[3].id }))) as Part[];
    expect(after.map((p) => p.id)).toEqual(live.slice(4).map((p) => p.id));
    const valuesOnly = (await collect(h.client.runs.joinStream(t.thread_id, run.run_id, { lastEventId: "-1", streamMode: ["values"] }))) as Part[];
    expect(new Set(valuesOnly.map((p) => p.event))).toEqual(new Set(["metadata", "values"]));
    expect(await h.client.runs.join(t.thread_id, run.run_id)).toMatchObject({ title: "Join me" });
  });

  it("lets the SDK reconnect through Location with Last-Event-ID when the stream drops", async () => {
    h = createHarness({ model: new ScriptedModel(["a b c d e f g h"], 10) });
    const t = await h.client.threads.create();
    const { Client } = await import("@langchain/langgraph-sdk");
    let cut = true;
    const requests: { method: string; url: string; lastEventId: string | null }[] = [];
    const flaky = async (u: string | URL | Request, init?: RequestInit) => {
      const req = new Request(u, init);
      requests.push({ method: req.method, url: req.url, lastEventId: req.headers.get("last-event-id") });
      const res = await h.api.handle(req);
      if (!cut || !req.url.endsWith("/runs/stream")) return res;
      cut = false; // the first stream dies after 4 events, like a dropped connection
      const reader = res.body!.getReader();
      let n = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          const { done, value } = await reader.read();
          if (done || ++n > 4) return void (reader.cancel(), c.close());
          c.enqueue(value);
        },
      });
      return new Response(body, { status: res.status, headers: res.headers });
    };
    const client = new Client({ apiUrl: "http://threadline.test/api/langgraph", callerOptions: { maxRetries: 0, fetch: flaky as typeof fetch } });
    const parts = (await collect(client.runs.stream(t.thread_id, "agent", { input: human("Reconnect"), streamMode: ["values", "messages-tuple"], streamResumable: true }))) as Part[];
    const ids = parts.map((p) => Number(p.id));
    expect(ids).toEqual(ids.map((_, i) => i)); // nothing lost, nothing twice
    expect(parts.filter((p) => p.event === "messages")).toHaveLength(8);
    const rejoin = requests.find((r) => r.method === "GET" && r.url.endsWith("/stream"));
    expect(rejoin?.lastEventId).toBe("3");
  });
});

describe("cancel", () => {
  it("interrupt stops the run, keeps its checkpoints and frees the thread", async () => {
    h = createHarness({ model: new ScriptedModel(["w ".repeat(200)], 5) });
    const t = await h.client.threads.create();
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Long answer please") });
    await waitForStatus(t.thread_id, run.run_id, "running");
    await sleep(30);
    await h.client.runs.cancel(t.thread_id, run.run_id, true);
    expect((await h.client.runs.get(t.thread_id, run.run_id)).status).toBe("interrupted");
    expect((await h.client.threads.get(t.thread_id)).status).toBe("idle");
    expect((await h.client.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Long answer please");
  });

  it("rollback deletes the run and its checkpoints", async () => {
    h = createHarness({ model: new ScriptedModel(["first answer", "w ".repeat(200)], 5) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("First") });
    const before = await h.client.threads.getState(t.thread_id);
    const run = await h.client.runs.create(t.thread_id, "agent", { input: human("Second") });
    await waitForStatus(t.thread_id, run.run_id, "running");
    await sleep(30);
    await h.client.runs.cancel(t.thread_id, run.run_id, true, "rollback");
    await expect(h.client.runs.get(t.thread_id, run.run_id)).rejects.toThrow(/404/);
    const after = await h.client.threads.getState(t.thread_id);
    expect(after.checkpoint.checkpoint_id).toBe(before.checkpoint.checkpoint_id);
    expect((await h.client.threads.get(t.thread_id)).status).toBe("idle");
  });
});

describe("multitask strategies", () => {
  it("reject answers 409 while busy; enqueue runs in order; interrupt replaces the active run", async () => {
    // 4 × 150 ms: the first run is still busy when the next requests land, also on Postgres in CI.
    h = createHarness({ model: new ScriptedModel(["alpha beta gamma delta"], 150) });
    const t = await h.client.threads.create();
    const first = await h.client.runs.create(t.thread_id, "agent", { input: human("one") });
    await expect(h.client.runs.create(t.thread_id, "agent", { input: human("rejected") })).rejects.toThrow(/409/);
    expect((await h.client.threads.get(t.thread_id)).status).toBe("busy");
    const second = await h.client.runs.create(t.thread_id, "agent", { input: human("two"), multitaskStrategy: "enqueue" });
    expect(second.status).toBe("pending");
    await h.client.runs.join(t.thread_id, second.run_id);
    const state = await h.client.threads.getState<{ messages: { type: string; content: string }[] }>(t.thread_id);
    expect(state.values.messages.map((m) => `${m.type}:${m.content}`)).toEqual(["human:one", "ai:alpha beta gamma delta", "human:two", "ai:alpha beta gamma delta"]);
    expect((await h.client.runs.get(t.thread_id, first.run_id)).status).toBe("success");
    expect(h.model.calls).toBe(2);

    const third = await h.client.runs.create(t.thread_id, "agent", { input: human("three") });
    await waitForStatus(t.thread_id, third.run_id, "running");
    const fourth = await h.client.runs.create(t.thread_id, "agent", { input: human("four"), multitaskStrategy: "interrupt" });
    await h.client.runs.join(t.thread_id, fourth.run_id);
    expect((await h.client.runs.get(t.thread_id, third.run_id)).status).toBe("interrupted");
    expect((await h.client.runs.get(t.thread_id, fourth.run_id)).status).toBe("success");
  });
});

describe("run options", () => {
  it("on_disconnect continue (default): the run finishes and its title lands after the client leaves", async () => {
    h = createHarness({ model: new ScriptedModel(["x y z ".repeat(10)], 5) });
    const t = await h.client.threads.create();
    const ctrl = new AbortController();
    let runId = "";
    for await (const part of h.client.runs.stream(t.thread_id, "agent", { input: human("Leave early"), streamMode: ["messages-tuple"], signal: ctrl.signal, onRunCreated: (m) => (runId = m.run_id) })) {
      if (part.event === "messages") ctrl.abort();
    }
    await h.client.runs.join(t.thread_id, runId);
    expect((await h.client.runs.get(t.thread_id, runId)).status).toBe("success");
    const [row] = await h.client.threads.search({ select: ["thread_id"], extract: { title: "values.title" } });
    expect(row.extracted).toEqual({ title: "Leave early" });
  });

  it("interrupt_before / interrupt_after leave the thread interrupted, as a LangGraph server does; resuming makes it idle", async () => {
    h = createHarness({ model: new ScriptedModel(["First answer.", "Second answer."]) });
    for (const pause of [{ interruptBefore: ["model_request"] }, { interruptAfter: ["model_request"] }]) {
      const t = await h.client.threads.create();
      await h.client.runs.wait(t.thread_id, "agent", { input: human("Pause please"), ...pause } as never);
      const state = await h.client.threads.getState(t.thread_id);
      expect(state.next.length, JSON.stringify(pause)).toBeGreaterThan(0);
      expect((await h.client.threads.get(t.thread_id)).status, JSON.stringify(pause)).toBe("interrupted");
      expect((await h.client.threads.search({ status: "interrupted" })).map((r) => r.thread_id)).toContain(t.thread_id);
      await h.client.runs.wait(t.thread_id, "agent", { input: null });
      expect((await h.client.threads.get(t.thread_id)).status, JSON.stringify(pause)).toBe("idle");
    }
  });

  it("on_disconnect cancel interrupts the run when the client leaves", async () => {
    h = createHarness({ model: new ScriptedModel(["x y z ".repeat(50)], 5) });
    const t = await h.client.threads.create();
    const ctrl = new AbortController();
    let runId = "";
    for await (const part of h.client.runs.stream(t.thread_id, "agent", { input: human("Stop when I go"), streamMode: ["messages-tuple"], onDisconnect: "cancel", signal: ctrl.signal, onRunCreated: (m) => (runId = m.run_id) })) {
      if (part.event === "messages") ctrl.abort();
    }
    await h.client.runs.join(t.thread_id, runId);
    expect((await h.client.runs.get(t.thread_id, runId)).status).toBe("interrupted");
  });

  it("honours checkpoint on submit (a branch from an earlier state) and if_not_exists", async () => {
    h = createHarness({ model: new ScriptedModel(["ok"]) });
    await expect(h.client.runs.wait("nope", "agent", { input: human("x") })).rejects.toThrow(/404/);
    const made = await h.client.runs.wait("made-on-the-fly", "agent", { input: human("Created by run"), ifNotExists: "create" });
    expect(made).toMatchObject({ title: "Created by run" });

    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("First question") });
    const afterFirst = await h.client.threads.getState(t.thread_id);
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Second question") });
    const { thread_id: _drop, ...checkpoint } = afterFirst.checkpoint;
    void _drop;
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Edited second"), checkpoint });
    const state = await h.client.threads.getState<{ messages: { content: string }[] }>(t.thread_id);
    expect(state.values.messages.map((m) => m.content)).toEqual(["First question", "ok", "Edited second", "ok"]);
    await expect(h.client.runs.wait(t.thread_id, "agent", { input: human("x"), checkpointId: "1f000000-0000-6000-8000-000000000000" })).rejects.toThrow(/404/);
  });

  it("lists and gets runs; wait raises a failed run's error", async () => {
    h = createHarness({ model: new ScriptedModel(["fine", "__throw__"]) });
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("a") });
    await expect(h.client.runs.wait(t.thread_id, "agent", { input: human("b") })).rejects.toThrow(/model exploded/);
    const runs = await h.client.runs.list(t.thread_id);
    expect(runs.map((r) => r.status)).toEqual(["error", "success"]);
    expect((await h.client.runs.get(t.thread_id, runs[1].run_id)).run_id).toBe(runs[1].run_id);
  });
});
