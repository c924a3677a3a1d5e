import http from "node:http";

/**
 * An OpenAI-compatible chat-completions server on loopback: the "scripted model" both servers
 * call (CHAT_MODEL=openai:bench-chat, OPENAI_BASE_URL=this). It answers after a fixed delay with
 * fixed tokens and records every request, so model calls are counted, not assumed.
 */
const SHORT = "This is the scripted answer from the bench model.";
const LONG = `${SHORT} It keeps streaming one word at a time, like a model writing a longer reply to a question that needs a few sentences.`;

/** `pace(text)` picks the reply for a request (text = its messages as JSON): delays and length. */
export async function startScriptedLLM(pace = () => ({ firstTokenMs: 100, tokenMs: 5 })) {
  const requests = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", async () => {
      if (req.url !== "/v1/chat/completions") return void res.writeHead(404).end();
      const body = JSON.parse(raw);
      const text = JSON.stringify(body.messages ?? []);
      requests.push({ at: Date.now(), model: body.model, text });
      const { firstTokenMs, tokenMs, long } = pace(text);
      const reply = long ? LONG : SHORT;
      const chunk = (delta, finish) => `data: ${JSON.stringify({ id: "b1", object: "chat.completion.chunk", created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      if (firstTokenMs) await new Promise((r) => setTimeout(r, firstTokenMs));
      if (!body.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ id: "b1", object: "chat.completion", created: 0, model: body.model, choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk({ role: "assistant", content: "" }, null));
      for (const piece of reply.match(/\S+\s*/g)) {
        res.write(chunk({ content: piece }, null));
        if (tokenMs) await new Promise((r) => setTimeout(r, tokenMs));
      }
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    /** How many requests carried `marker` (a word unique to one conversation). */
    callsFor: (marker) => requests.filter((r) => r.text.includes(marker)).length,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
