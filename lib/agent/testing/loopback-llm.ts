import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Test-only loopback servers that speak the OpenAI chat-completions and the Anthropic messages
 * wire protocols, so tests drive the real @langchain/openai and @langchain/anthropic clients over
 * HTTP. Each request is recorded; the reply is scripted per model name.
 */
export type ScriptedReply =
  | { text: string; delayMs?: number }
  | { status: number; body?: string }
  | { hang: true }
  | { malformed: true };

export interface RecordedRequest {
  protocol: "openai" | "anthropic";
  model: string;
  stream: boolean;
  body: Record<string, unknown>;
  at: number;
}

export interface LoopbackLLM {
  openaiBaseURL: string;
  anthropicBaseURL: string;
  requests: RecordedRequest[];
  /** Which reply a request for `model` gets (called per request). */
  script(model: string, reply: ScriptedReply | ((req: RecordedRequest) => ScriptedReply)): void;
  close(): Promise<void>;
}

const sse = (res: http.ServerResponse, data: unknown, event?: string) =>
  res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);

function openaiReply(res: http.ServerResponse, text: string, stream: boolean, model: string) {
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model, choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({ id: "c1", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  sse(res, chunk({ role: "assistant", content: "" }, null));
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) sse(res, chunk({ content: piece }, null));
  sse(res, chunk({}, "stop"));
  res.end("data: [DONE]\n\n");
}

function anthropicReply(res: http.ServerResponse, text: string, stream: boolean, model: string) {
  const usage = { input_tokens: 1, output_tokens: 1 };
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: "msg_1", type: "message", role: "assistant", model, content: [{ type: "text", text }], stop_reason: "end_turn", stop_sequence: null, usage }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  sse(res, { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage } }, "message_start");
  sse(res, { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start");
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) sse(res, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } }, "content_block_delta");
  sse(res, { type: "content_block_stop", index: 0 }, "content_block_stop");
  sse(res, { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } }, "message_delta");
  sse(res, { type: "message_stop" }, "message_stop");
  res.end();
}

export async function startLoopbackLLM(): Promise<LoopbackLLM> {
  const scripts = new Map<string, ScriptedReply | ((req: RecordedRequest) => ScriptedReply)>();
  const requests: RecordedRequest[] = [];
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", async () => {
      const protocol = req.url === "/v1/chat/completions" ? "openai" : req.url === "/v1/messages" ? "anthropic" : null;
      if (!protocol) return void res.writeHead(404).end();
      const body = JSON.parse(raw) as Record<string, unknown>;
      const recorded: RecordedRequest = { protocol, model: String(body.model), stream: body.stream === true, body, at: Date.now() };
      requests.push(recorded);
      const script = scripts.get(recorded.model) ?? { text: "Scripted answer." };
      const reply = typeof script === "function" ? script(recorded) : script;
      if ("hang" in reply) {
        open.add(res);
        res.on("close", () => open.delete(res));
        return; // never answers; the client's deadline must end it
      }
      if ("status" in reply) {
        res.writeHead(reply.status, { "content-type": "application/json" });
        return void res.end(reply.body ?? JSON.stringify({ error: { message: "scripted failure", type: "server_error" } }));
      }
      if ("malformed" in reply) {
        res.writeHead(200, { "content-type": recorded.stream ? "text/event-stream" : "application/json" });
        return void res.end(recorded.stream ? "data: {not json\n\ndata: [DONE]\n\n" : "{not json");
      }
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      (protocol === "openai" ? openaiReply : anthropicReply)(res, reply.text, recorded.stream, recorded.model);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    openaiBaseURL: `${base}/v1`,
    anthropicBaseURL: base,
    requests,
    script: (model, reply) => void scripts.set(model, reply),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
