import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HumanMessage } from "@langchain/core/messages";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { fallbackTitle } from "@/lib/title";
import { createThreadlineAgent } from "./agent";
import { chatModelFromEnv } from "./models";

// A loopback OpenAI-compatible endpoint: the real ChatOpenAI client from env talks to it over HTTP.
const requests: { model: string; stream: boolean; messages: { role: string; content: string }[] }[] = [];
let server: http.Server;
let baseURL = "";
const WORDS = ["Hello ", "from ", "the ", "loopback."];

function chunk(delta: Record<string, unknown>, finish: string | null) {
  return `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "loopback", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.url !== "/v1/chat/completions" || req.headers.authorization !== "Bearer sk-loopback") {
        res.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body);
      requests.push(parsed);
      if (!parsed.stream) {
        const message = { role: "assistant", content: WORDS.join("") };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: "loopback", choices: [{ index: 0, message, finish_reason: "stop" }] }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk({ role: "assistant", content: "" }, null));
      for (const word of WORDS) res.write(chunk({ content: word }, null));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("a real model from env (any OpenAI-compatible endpoint)", () => {
  it("answers through the endpoint; the title adds no model call", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-openai-"));
    const db = new Database(path.join(dir, "threadline.sqlite"));
    try {
      const model = await chatModelFromEnv({ OPENAI_API_KEY: "sk-loopback", OPENAI_BASE_URL: baseURL, CHAT_MODEL: "loopback-model" });
      const agent = createThreadlineAgent({ checkpointer: new SqliteSaver(db), chatModel: model });
      const config = { configurable: { thread_id: "real-1" } };
      const text = "Which trains go from Porto to Lisbon?";
      await agent.invoke({ messages: [new HumanMessage(text)] }, config);

      const state = await agent.graph.getState(config);
      const messages = state.values.messages as { type: string; text: string }[];
      expect(messages.at(-1)?.text).toBe("Hello from the loopback.");
      expect(state.values.title).toBe(fallbackTitle(text));
      expect(requests).toHaveLength(1);
      expect(requests[0].model).toBe("loopback-model");
      expect(requests[0].messages.at(-1)).toMatchObject({ role: "user", content: text });
      expect(requests[0].stream).toBe(false);

      // A client streaming messages gets the endpoint's tokens one by one.
      const tokens: string[] = [];
      const stream = await agent.stream({ messages: [new HumanMessage("And the fastest one?")] }, { ...config, streamMode: "messages" });
      for await (const [message] of stream as AsyncIterable<[{ text?: string; content?: unknown }, unknown]>) {
        if (message.text) tokens.push(message.text);
      }
      expect(tokens).toEqual(WORDS);
      expect(requests).toHaveLength(2);
      expect(requests[1].stream).toBe(true);
      expect((await agent.graph.getState(config)).values.title).toBe(fallbackTitle(text));
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
