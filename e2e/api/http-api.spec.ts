import { expect, test } from "@playwright/test";
import { Client } from "@langchain/langgraph-sdk";
import { fallbackTitle } from "../../lib/title";

// The API over real HTTP against `next start` (the in-process suites live in lib/server):
// the official SDK as the client, no retries, the offline model streaming with a token delay.
const root = () => `${process.env.E2E_BASE_URL}/api/langgraph`;
const client = () => new Client({ apiUrl: root(), callerOptions: { maxRetries: 0 } });

test.describe("LangGraph API over HTTP", () => {
  test("a streamed first run carries the title in values before the first answer token", async () => {
    const sdk = client();
    const thread = await sdk.threads.create();
    const text = "How do I bake a sourdough loaf with a crispy crust at home?";
    const order: string[] = [];
    let title: unknown = null;
    for await (const ev of sdk.runs.stream(thread.thread_id, "agent", {
      input: { messages: [{ type: "human", content: text }] },
      streamMode: ["values", "messages-tuple"],
    })) {
      if (ev.event === "values" && (ev.data as { title?: string }).title && !order.includes("title")) {
        order.push("title");
        title = (ev.data as { title: string }).title;
      }
      if (ev.event === "messages" && !order.includes("token")) order.push("token");
    }
    expect(order).toEqual(["title", "token"]);
    expect(title).toBe(fallbackTitle(text));
    const [row] = await sdk.threads.search({
      ids: [thread.thread_id],
      select: ["thread_id", "updated_at", "status", "metadata"],
      extract: { title: "values.title", title_source: "values.title_source" },
    });
    expect(row).not.toHaveProperty("values");
    expect((row as unknown as { extracted: unknown }).extracted).toEqual({ title, title_source: { kind: "fallback" } });
  });

  test("answers a client on this machine unzipped, while pages stay gzipped", async () => {
    // Next gzips whatever a client accepts gzip for; on loopback that only costs CPU (lib/server/api.ts).
    const gzip = { "accept-encoding": "gzip" };
    const page = await fetch(`${root()}/threads/search`, { method: "POST", headers: { ...gzip, "content-type": "application/json" }, body: JSON.stringify({ limit: 50 }) });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-encoding")).toBeNull();
    expect(Array.isArray(await page.json())).toBe(true);
    const html = await fetch(`${process.env.E2E_BASE_URL}/`, { headers: gzip });
    expect(html.headers.get("content-encoding")).toBe("gzip");
  });

  test("sends the headers useStream relies on", async () => {
    const thread = await client().threads.create();
    const res = await fetch(`${root()}/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "agent", input: { messages: [{ type: "human", content: "hi" }] }, stream_resumable: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const contentLocation = res.headers.get("content-location") ?? "";
    expect(contentLocation).toMatch(new RegExp(`^/threads/${thread.thread_id}/runs/[0-9a-f-]+$`));
    expect(res.headers.get("location")).toBe(`${contentLocation}/stream`);
    const body = await res.text();
    expect(body.startsWith("event: metadata")).toBe(true);
  });

  test("a rename while the first run streams wins, even after the client leaves", async () => {
    const sdk = client();
    const thread = await sdk.threads.create();
    const controller = new AbortController();
    const stream = sdk.runs.stream(thread.thread_id, "agent", {
      input: { messages: [{ type: "human", content: "Tell me about the history of tea" }] },
      streamMode: ["values"],
      signal: controller.signal,
    });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next(); // metadata: the run has started
    const renamed = (await sdk.threads.updateState(thread.thread_id, { values: { title: "  My tea notes\u202E " } })) as unknown as {
      title: string;
    };
    expect(renamed.title).toBe("My tea notes");
    controller.abort(); // the browser leaves; on_disconnect defaults to continue
    await iterator.return?.(undefined);

    const [run] = await sdk.runs.list(thread.thread_id);
    expect(run.status).toBe("running");
    await sdk.runs.join(thread.thread_id, run.run_id);
    expect((await sdk.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
    const state = await sdk.threads.getState<{ title: string; title_source: { kind: string } }>(thread.thread_id);
    expect(state.values.title).toBe("My tea notes");
    expect(state.values.title_source).toEqual({ kind: "user" });
    const found = await sdk.threads.search({ metadata: { $title_search: "tea notes" }, limit: 5 });
    expect(found.map((t) => t.thread_id)).toContain(thread.thread_id);
  });

  test("client mistakes get a clear 4xx and change nothing", async () => {
    const sdk = client();
    const thread = await sdk.threads.create();
    const post = (path: string, body: string) =>
      fetch(`${root()}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });

    const empty = await post(`/threads/${thread.thread_id}/state`, JSON.stringify({ values: { title: "   " } }));
    expect(empty.status).toBe(422);
    expect((await empty.json()).detail).toMatch(/title/i);
    expect((await post(`/threads/${thread.thread_id}/runs/stream`, "{not json")).status).toBe(422);
    expect((await fetch(`${root()}/threads/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    expect((await fetch(`${root()}/threads/${thread.thread_id}/runs/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    const state = await sdk.threads.getState<{ title?: string | null }>(thread.thread_id);
    expect(state.values.title ?? null).toBeNull();
  });

  test("limits hold behind next start: 413 past the cap (also chunked), 415 for non-JSON, 422 for a title in run input", async () => {
    const sdk = client();
    const thread = await sdk.threads.create();
    const big = JSON.stringify({ metadata: { blob: "x".repeat(1024 * 1024) } });
    const tooBig = await fetch(`${root()}/threads`, { method: "POST", headers: { "content-type": "application/json" }, body: big });
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).detail).toMatch(/1 MiB/);
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new Uint8Array(64 * 1024).fill(32));
        c.close();
      },
    });
    const chunked = await fetch(`${root()}/threads/${thread.thread_id}/history`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const text = await fetch(`${root()}/threads`, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" });
    expect(text.status).toBe(415);
    await expect(sdk.runs.wait(thread.thread_id, "agent", { input: { messages: [{ type: "human", content: "hi" }], title: "x", title_source: { kind: "user" } } })).rejects.toMatchObject({ status: 422 });
    expect((await sdk.runs.list(thread.thread_id)).length).toBe(0);
  });
});
