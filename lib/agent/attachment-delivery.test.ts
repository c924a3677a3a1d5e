import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HumanMessage } from "@langchain/core/messages";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { attachmentBlock, readAttachment } from "@/lib/client/attachments";
import { createThreadlineAgent } from "./agent";
import { chatModelFromEnv } from "./models";

// One loopback server speaking just enough of both providers' APIs to record what they are sent.
const received: { url: string; body: { messages: { role: string; content: unknown }[] } }[] = [];
let server: http.Server;
let origin = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      received.push({ url: req.url ?? "", body: JSON.parse(body) });
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url === "/v1/messages") {
        res.end(JSON.stringify({ id: "m1", type: "message", role: "assistant", model: "loopback", content: [{ type: "text", text: "Seen." }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } }));
      } else {
        res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: "loopback", choices: [{ index: 0, message: { role: "assistant", content: "Seen." }, finish_reason: "stop" }] }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const PDF = Buffer.from("%PDF-1.4\n%%EOF\n");
const NOTES = "Milk, eggs, bread ✓";

/** A message as the browser builds it: the real composer reader and block shape. */
async function messageWithFiles(): Promise<HumanMessage> {
  const files = await Promise.all([
    readAttachment(new File([PNG], "cat.png", { type: "image/png" })),
    readAttachment(new File([PDF], "report.pdf", { type: "application/pdf" })),
    readAttachment(new File([NOTES], "notes.txt", { type: "text/plain" })),
  ]);
  return new HumanMessage({ content: [{ type: "text", text: "What is in these?" }, ...files.map(attachmentBlock)] });
}

async function sendThroughAgent(model: BaseChatModel) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-attach-"));
  const db = new Database(path.join(dir, "threadline.sqlite"));
  try {
    const agent = createThreadlineAgent({ checkpointer: new SqliteSaver(db), chatModel: model });
    const config = { configurable: { thread_id: "t1" } };
    const before = received.length;
    await agent.invoke({ messages: [await messageWithFiles()] }, config);
    expect(received.length).toBe(before + 1);
    const state = await agent.graph.getState(config);
    return { sent: received.at(-1)!, stored: state.values.messages[0] as HumanMessage, title: state.values.title as string };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function userContent(sent: (typeof received)[number]) {
  const user = sent.body.messages.find((m) => m.role === "user");
  return user?.content as Record<string, unknown>[];
}

describe("attachments reach a real provider in its own format", () => {
  it("OpenAI: image as an image_url data URL, PDF as a named file, text file as text", async () => {
    const model = await chatModelFromEnv({ OPENAI_API_KEY: "sk-loopback", OPENAI_BASE_URL: `${origin}/v1`, CHAT_MODEL: "loopback" });
    const { sent, stored, title } = await sendThroughAgent(model);
    expect(sent.url).toBe("/v1/chat/completions");
    expect(userContent(sent)).toEqual([
      { type: "text", text: "What is in these?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
      { type: "file", file: { file_data: `data:application/pdf;base64,${PDF.toString("base64")}`, filename: "report.pdf" } },
      { type: "text", text: `<attached_file name="notes.txt" type="text/plain">\n${NOTES}\n</attached_file>` },
    ]);
    // The checkpoint keeps the message as sent: standard blocks, name and size in metadata.
    expect((stored.content as Record<string, unknown>[]).map((b) => [b.type, (b.metadata as { filename?: string })?.filename])).toEqual([
      ["text", undefined],
      ["image", "cat.png"],
      ["file", "report.pdf"],
      ["file", "notes.txt"],
    ]);
    expect(title).toBe("What is in these?");
  });

  it("Anthropic: image and PDF as base64 sources, text file as text", async () => {
    const model = await chatModelFromEnv({ CHAT_MODEL: "anthropic:claude-loopback", ANTHROPIC_API_KEY: "sk-loopback", ANTHROPIC_BASE_URL: origin });
    const { sent } = await sendThroughAgent(model);
    expect(sent.url).toBe("/v1/messages");
    expect(userContent(sent)).toEqual([
      { type: "text", text: "What is in these?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: PNG.toString("base64") } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF.toString("base64") } },
      { type: "text", text: `<attached_file name="notes.txt" type="text/plain">\n${NOTES}\n</attached_file>` },
    ]);
  });
});
