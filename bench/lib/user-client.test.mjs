import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { userClient } from "./user-client.mjs";

// A loopback stand-in for a LangGraph server's wire: this tests the bench's transport, not our API.
let server;
let apiUrl;
const connections = [];
const requests = [];
let releaseStream;
let streamClosedEarly = false;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    requests.push({ method: req.method, url: req.url, headers: req.headers, body, socket: req.socket });
    if (req.url === "/threads/t1" && req.method === "DELETE") {
      res.writeHead(204).end();
    } else if (req.url === "/threads/t1") {
      res.writeHead(200, { "content-type": "application/json", "x-two": ["a", "b"], "set-cookie": ["a=1", "b=2"] });
      res.end(JSON.stringify({ thread_id: "t1", values: { title: "Sourdough" } }));
    } else if (req.url === "/threads" && req.method === "POST") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ thread_id: "t2", metadata: JSON.parse(body).metadata }));
    } else if (req.url === "/threads/t1/runs/stream") {
      // The first event goes out at once; the stream ends only when the test says so.
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('event: metadata\ndata: {"run_id":"r1"}\n\n');
      res.on("close", () => (streamClosedEarly = !res.writableEnded));
      await new Promise((resolve) => (releaseStream = resolve));
      res.end('event: values\ndata: {"title":"Sourdough"}\n\n');
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "not here" }));
    }
  });
  server.on("connection", (socket) => connections.push(socket));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${server.address().port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("userClient: one user's SDK Client over a connection of its own", () => {
  it("sends the SDK's method, headers and body, and reads a JSON answer", async () => {
    const { client, close } = userClient(apiUrl);
    try {
      expect(await client.threads.create({ metadata: { who: "u1" } })).toEqual({ thread_id: "t2", metadata: { who: "u1" } });
      const sent = requests.at(-1);
      expect(sent.method).toBe("POST");
      expect(sent.headers["content-type"]).toMatch(/application\/json/);
      expect(JSON.parse(sent.body)).toMatchObject({ metadata: { who: "u1" } });
      expect(await client.threads.get("t1")).toEqual({ thread_id: "t1", values: { title: "Sourdough" } });
    } finally {
      close();
    }
  });

  it("hands the SDK a Response with the server's status and every header, a repeated one joined as fetch joins it", async () => {
    const { fetch, close } = userClient(apiUrl);
    try {
      const res = await fetch(`${apiUrl}/threads/t1`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("x-two")).toBe("a, b");
      // Node hands set-cookie over as a list: each stays a header of its own, as fetch keeps them.
      expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
      expect(await res.json()).toEqual({ thread_id: "t1", values: { title: "Sourdough" } });
    } finally {
      close();
    }
  });

  it("keeps one connection per user across requests, and a new user gets a new one", async () => {
    const a = userClient(apiUrl);
    const b = userClient(apiUrl);
    try {
      const before = connections.length;
      await a.client.threads.get("t1");
      await a.client.threads.get("t1");
      await a.client.threads.get("t1");
      expect(connections.length - before).toBe(1);
      await b.client.threads.get("t1");
      expect(connections.length - before).toBe(2);
      const sockets = new Set(requests.slice(-4).map((r) => r.socket));
      expect(sockets.size).toBe(2);
    } finally {
      a.close();
      b.close();
    }
  });

  it("hands a stream's first event to the SDK before the server ends the answer", async () => {
    const { client, close } = userClient(apiUrl);
    try {
      const parts = client.runs.stream("t1", "agent", { input: { messages: [] } })[Symbol.asyncIterator]();
      const first = await parts.next();
      expect(first.value).toMatchObject({ event: "metadata", data: { run_id: "r1" } });
      releaseStream();
      const second = await parts.next();
      expect(second.value).toMatchObject({ event: "values", data: { title: "Sourdough" } });
      expect((await parts.next()).done).toBe(true);
    } finally {
      close();
    }
  });

  it("answers a 204 with no body, on a connection the next request reuses, and a 404 as the SDK's error with the server's message", async () => {
    const { client, close } = userClient(apiUrl);
    try {
      const before = connections.length;
      await expect(client.threads.delete("t1")).resolves.toBeUndefined();
      await expect(client.threads.get("missing")).rejects.toThrow(/HTTP 404: .*not here/);
      // The empty answer freed its connection for the next request (it was not left waiting for
      // the server's keep-alive timeout to close it).
      expect(connections.length - before).toBe(1);
    } finally {
      close();
    }
  });

  it("fails as fetch fails when nothing listens, so the SDK reports a connection error", async () => {
    const closed = http.createServer();
    await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = closed.address().port;
    await new Promise((resolve) => closed.close(resolve));
    const { client, close } = userClient(`http://127.0.0.1:${port}`);
    try {
      const err = await client.threads.get("t1").catch((e) => e);
      // The SDK knows a connection failure only by fetch's words: "fetch failed".
      expect(err.name).toBe("ConnectionError");
      expect(err.message).toMatch(/Original error: fetch failed/);
    } finally {
      close();
    }
  });

  it("ends a stream when its signal aborts, and closes the request on the server", async () => {
    const { client, close } = userClient(apiUrl);
    try {
      const controller = new AbortController();
      const parts = client.runs.stream("t1", "agent", { input: { messages: [] }, signal: controller.signal })[Symbol.asyncIterator]();
      await parts.next();
      controller.abort();
      expect(await parts.next()).toEqual({ value: undefined, done: true });
      await vi.waitFor(() => expect(streamClosedEarly).toBe(true));
    } finally {
      releaseStream();
      close();
    }
  });
});
