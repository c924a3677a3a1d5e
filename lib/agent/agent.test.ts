import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { DEFAULT_TITLE_CONFIG, fallbackTitle } from "@/lib/title";
import { createThreadlineAgent } from "./agent";
import { TITLE_WRITER_NODE } from "./title-middleware";
import { createOfflineChatModel } from "./offline-model";

let dir: string;
let dbPath: string;
const openDbs: Database.Database[] = [];

function saver() {
  const db = new Database(dbPath);
  openDbs.push(db);
  return new SqliteSaver(db);
}

const cfg = (thread_id: string) => ({ configurable: { thread_id } });
const user = (text: string) => ({ messages: [new HumanMessage(text)] });

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-agent-"));
  dbPath = path.join(dir, "threadline.sqlite");
});

afterEach(() => {
  while (openDbs.length) openDbs.pop()!.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("TitleMiddleware on the real graph with a SQLite file", () => {
  it("puts the fallback title in a values chunk and makes exactly one model call on the first turn", async () => {
    const model = fakeModel().respond(new AIMessage("Here is how to write tests."));
    const agent = createThreadlineAgent({ checkpointer: saver(), chatModel: model });
    const titles: (string | null)[] = [];
    for await (const chunk of await agent.stream(user("请帮我写测试"), { ...cfg("t1"), streamMode: "values" })) {
      titles.push((chunk as { title?: string | null }).title ?? null);
    }
    expect(titles).toContain("请帮我写测试");
    expect(model.calls).toHaveLength(1);
    const state = await agent.graph.getState(cfg("t1"));
    expect(state.values.title).toBe("请帮我写测试");
    expect(state.values.title_source).toEqual({ kind: "fallback" });
  });

  it("sends the instant title before the first answer token", async () => {
    const agent = createThreadlineAgent({ checkpointer: saver(), chatModel: createOfflineChatModel({ delayMs: 1 }) });
    const order: string[] = [];
    const stream = await agent.stream(user("Plan a trip to Lisbon"), { ...cfg("t2"), streamMode: ["values", "messages"] });
    for await (const [mode, payload] of stream as AsyncIterable<[string, unknown]>) {
      if (mode === "values" && (payload as { title?: string }).title) order.push("title");
      if (mode === "messages") order.push("token");
    }
    expect(order.indexOf("title")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("token")).toBeGreaterThan(order.indexOf("title"));
  });

  it("with instant off, sets the title only after the first model response", async () => {
    const model = fakeModel().respond(new AIMessage("Sure."));
    const agent = createThreadlineAgent({
      checkpointer: saver(),
      chatModel: model,
      titleConfig: { ...DEFAULT_TITLE_CONFIG, instant: false },
    });
    const seen: { title: string | null; hasAi: boolean }[] = [];
    for await (const chunk of await agent.stream(user("Explain monads"), { ...cfg("t3"), streamMode: "values" })) {
      const c = chunk as { title?: string | null; messages: { type: string }[] };
      seen.push({ title: c.title ?? null, hasAi: c.messages.some((m) => m.type === "ai") });
    }
    const firstTitled = seen.findIndex((s) => s.title);
    expect(firstTitled).toBeGreaterThan(0);
    expect(seen[firstTitled].hasAi).toBe(true);
    expect(seen.slice(0, firstTitled).every((s) => !s.hasAi || !s.title)).toBe(true);
    expect(model.calls).toHaveLength(1);
  });

  it("leaves the title unchanged on a second user turn", async () => {
    const model = fakeModel().respond(new AIMessage("One.")).respond(new AIMessage("Two."));
    const agent = createThreadlineAgent({ checkpointer: saver(), chatModel: model });
    await agent.invoke(user("First question about sourdough"), cfg("t4"));
    await agent.invoke(user("A totally different second question"), cfg("t4"));
    const state = await agent.graph.getState(cfg("t4"));
    expect(state.values.title).toBe("First question about sourdough");
    expect(model.calls).toHaveLength(2);
  });

  it("keeps a pinned user title through a further turn", async () => {
    const model = fakeModel().respond(new AIMessage("One.")).respond(new AIMessage("Two."));
    const agent = createThreadlineAgent({ checkpointer: saver(), chatModel: model });
    await agent.invoke(user("Original question"), cfg("t5"));
    await agent.graph.updateState(cfg("t5"), { title: "My own name", title_source: { kind: "user" } });
    await agent.invoke(user("Next question"), cfg("t5"));
    const state = await agent.graph.getState(cfg("t5"));
    expect(state.values.title).toBe("My own name");
    expect(state.values.title_source).toEqual({ kind: "user" });
  });

  it("does not write an automatic title over a pin reported through the run context", async () => {
    const model = fakeModel().respond(new AIMessage("Answer."));
    const agent = createThreadlineAgent({ checkpointer: saver(), chatModel: model });
    let asked = 0;
    const readTitlePin = () => {
      asked++;
      return { title: "Renamed mid-run", source: { kind: "user" as const } };
    };
    await agent.invoke(user("Question racing a rename"), { ...cfg("t6"), context: { readTitlePin } });
    const state = await agent.graph.getState(cfg("t6"));
    expect(asked).toBeGreaterThan(0);
    expect(state.values.title).toBeNull();
    expect(model.calls).toHaveLength(1);
  });

  it("still reads the title after a restart (a fresh saver on the same file)", async () => {
    const agent = createThreadlineAgent({ checkpointer: saver(), chatModel: fakeModel().respond(new AIMessage("Hi.")) });
    await agent.invoke(user("Persist me across restarts"), cfg("t7"));
    while (openDbs.length) openDbs.pop()!.close();
    const restarted = createThreadlineAgent({ checkpointer: saver(), chatModel: fakeModel() });
    const state = await restarted.graph.getState(cfg("t7"));
    expect(state.values.title).toBe("Persist me across restarts");
    expect(state.values.title_source).toEqual({ kind: "fallback" });
  });

  it("titles a first answer cut by the output limit without an extra model call", async () => {
    const cut = new AIMessage({ content: "This answer was cut sho", response_metadata: { finish_reason: "length" } });
    const model = fakeModel().respond(cut);
    const agent = createThreadlineAgent({
      checkpointer: saver(),
      chatModel: model,
      titleConfig: { ...DEFAULT_TITLE_CONFIG, instant: false },
    });
    const long = "Write me an extremely long essay about the history of the printing press in Europe";
    await agent.invoke(user(long), cfg("t8"));
    const state = await agent.graph.getState(cfg("t8"));
    expect(state.values.title).toBe(fallbackTitle(long, DEFAULT_TITLE_CONFIG));
    expect(state.values.title).toMatch(/\.\.\.$/);
    expect(model.calls).toHaveLength(1);
  });

  it("writes no title when titles are disabled", async () => {
    const agent = createThreadlineAgent({
      checkpointer: saver(),
      chatModel: fakeModel().respond(new AIMessage("ok")),
      titleConfig: { ...DEFAULT_TITLE_CONFIG, enabled: false },
    });
    await agent.invoke(user("No title please"), cfg("t9"));
    expect((await agent.graph.getState(cfg("t9"))).values.title).toBeNull();
  });

  it("titles from the original user text kept in additional_kwargs", async () => {
    const agent = createThreadlineAgent({ checkpointer: saver(), chatModel: fakeModel().respond(new AIMessage("ok")) });
    const msg = new HumanMessage({
      content: "<context>long injected preamble</context> What is Rust?",
      additional_kwargs: { original_user_text: "What is Rust?" },
    });
    await agent.invoke({ messages: [msg] }, cfg("t10"));
    expect((await agent.graph.getState(cfg("t10"))).values.title).toBe("What is Rust?");
  });
});

describe("graph shape", () => {
  it("has the node that outside title writes are attributed to", () => {
    const agent = createThreadlineAgent();
    expect(Object.keys(agent.graph.nodes)).toContain(TITLE_WRITER_NODE);
  });
});
