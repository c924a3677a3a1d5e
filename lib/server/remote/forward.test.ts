import { describe, expect, it } from "vitest";
import { guardConfigFromEnv, unzippedOnLoopback } from "../auth/request-guard";
import { FORWARDED_IDENTITY_HEADER } from "../auth/forwarded-identity";
import { remoteConfigFromEnv } from "./config";
import { createForwarder } from "./forward";

// Header handling at the edge, against an upstream that answers what a LangGraph server mounted
// under a path prefix would (absolute and prefixed locations). langgraph dev itself is exercised
// in forward-langgraph-dev.test.ts.
describe("forwarder headers", () => {
  it("rewrites Location / Content-Location to our API root and drops hop and cookie headers", async () => {
    const seen: Headers[] = [];
    const fwd = createForwarder(
      { apiUrl: "http://up.example/lg", apiKey: "k-123", mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
      {
        fetch: async (_url, init) => {
          seen.push(new Headers(init?.headers));
          return new Response("data: 1\n\n", {
            headers: {
              "Content-Type": "text/event-stream",
              Location: "http://up.example/lg/threads/t1/runs/r1/stream?stream_mode=values",
              "Content-Location": "/lg/threads/t1/runs/r1",
              "Set-Cookie": "upstream=1",
              "Content-Encoding": "gzip",
            },
          });
        },
      },
    );
    const res = await fwd.serve(
      new Request("http://127.0.0.1:3000/api/langgraph/threads/t1/runs/stream", {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: "session=abc", "x-api-key": "browser-sent", [FORWARDED_IDENTITY_HEADER]: "forged" },
        body: "{}",
      }),
    );
    expect(res.headers.get("location")).toBe("/threads/t1/runs/r1/stream?stream_mode=values");
    expect(res.headers.get("content-location")).toBe("/threads/t1/runs/r1");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.text()).toBe("data: 1\n\n");
    // Our cookies and whatever the browser sent as credentials never go upstream; our key does.
    expect(seen[0].get("cookie")).toBeNull();
    expect(seen[0].get("x-api-key")).toBe("k-123");
    expect(seen[0].get(FORWARDED_IDENTITY_HEADER)).toBeNull();
    expect(seen[0].get("accept-encoding")).toBe("identity");
  });

  it("a client's mistake in the path is a 400 sent nowhere; an upstream page that is not JSON is a 502 that says so", async () => {
    const calls: string[] = [];
    const fwd = createForwarder(
      { apiUrl: "http://up.example", apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
      {
        fetch: async (url) => {
          calls.push(String(url));
          return new Response("<html>proxy login</html>", { headers: { "Content-Type": "text/html" } });
        },
      },
    );
    const bad = await fwd.handle(new Request("http://127.0.0.1:3000/api/langgraph/threads/%E0%A4%A/state"));
    expect(bad.status).toBe(400);
    expect((await bad.json()).detail).toMatch(/Malformed %-escape/);
    expect(calls).toEqual([]);
    const search = await fwd.handle(
      new Request("http://127.0.0.1:3000/api/langgraph/threads/search", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ metadata: { $title_search: "trip" } }) }),
    );
    expect(search.status).toBe(502);
    expect((await search.json()).detail).toMatch(/something other than a list/);
  });

  it("a browser on this machine gets forwarded JSON with no-transform (Next then sends it unzipped), another host as the server sent it", async () => {
    const fwd = createForwarder(
      { apiUrl: "http://up.example", apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({ THREADLINE_ALLOWED_HOSTS: "chat.example" }), searchScan: 5000 },
      { fetch: async () => Response.json([], { headers: { "Cache-Control": "private" } }) },
    );
    const search = (host: string) => fwd.serve(new Request("http://127.0.0.1:3000/api/langgraph/threads/search", { method: "POST", headers: { host, "Content-Type": "application/json" }, body: "{}" }));
    expect((await search("127.0.0.1:3000")).headers.get("cache-control")).toBe("private, no-transform");
    expect((await search("chat.example")).headers.get("cache-control")).toBe("private");
    // An answer straight from fetch (a rename the LangGraph server refused is passed back as it
    // came) has immutable headers: it is copied, never a TypeError and a 500.
    const fromFetch = await fetch("data:application/json,%7B%22detail%22%3A%22not%20found%22%7D");
    const copied = unzippedOnLoopback(new Request("http://127.0.0.1:3000/x", { headers: { host: "127.0.0.1:3000" } }), fromFetch);
    expect(copied.headers.get("cache-control")).toBe("no-transform");
    expect(await copied.json()).toEqual({ detail: "not found" });
  });

  it("an unreachable server is a clear 502, never a hang", async () => {
    const fwd = createForwarder(
      { apiUrl: "http://127.0.0.1:9", apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
      { fetch: async () => Promise.reject(new TypeError("fetch failed")) },
    );
    const res = await fwd.handle(new Request("http://127.0.0.1:3000/api/langgraph/info"));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ detail: "The LangGraph server behind this app is unreachable" });
  });

  it("reads LANGGRAPH_API_URL; accounts without a forward secret stop the server", () => {
    expect(remoteConfigFromEnv({})).toBeNull();
    expect(remoteConfigFromEnv({ LANGGRAPH_API_URL: "http://127.0.0.1:2025/" })).toMatchObject({ apiUrl: "http://127.0.0.1:2025", mode: "local", apiKey: null });
    expect(() => remoteConfigFromEnv({ LANGGRAPH_API_URL: "ftp://x" })).toThrow(/http\(s\)/);
    expect(() => remoteConfigFromEnv({ LANGGRAPH_API_URL: "not a url" })).toThrow(/absolute/);
    expect(() => remoteConfigFromEnv({ LANGGRAPH_API_URL: "http://x", THREADLINE_AUTH: "accounts" })).toThrow(/THREADLINE_FORWARD_SECRET/);
    // How far a title search reads (title-scan.ts): 5,000 unless set; a bad value stops the start.
    expect(remoteConfigFromEnv({ LANGGRAPH_API_URL: "http://x" })?.searchScan).toBe(5000);
    expect(remoteConfigFromEnv({ LANGGRAPH_API_URL: "http://x", THREADLINE_REMOTE_SEARCH_SCAN: " 20000 " })?.searchScan).toBe(20000);
    for (const bad of ["99", "100001", "5e3.5", "lots", "-1"]) {
      expect(() => remoteConfigFromEnv({ LANGGRAPH_API_URL: "http://x", THREADLINE_REMOTE_SEARCH_SCAN: bad })).toThrow(/THREADLINE_REMOTE_SEARCH_SCAN must be a whole number/);
    }
  });
});

describe("state writes beside a waiting rename", () => {
  it("another state write (Stop's kept answer) goes upstream after the rename waiting for the run has landed", async () => {
    const writes: string[] = [];
    let busy = true;
    const fwd = createForwarder(
      { apiUrl: "http://up.example", apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
      {
        fetch: async (url, init) => {
          const path = new URL(String(url)).pathname;
          if (path === "/threads/t1/runs") {
            // The run ends a moment after the rename was refused as busy.
            await new Promise((r) => setTimeout(r, 150));
            busy = false;
            return Response.json([]);
          }
          if (path === "/threads/t1/state" && init?.method === "POST") {
            const body = JSON.parse(String(await new Response(init.body).text())) as { values: { title?: string; messages?: unknown[] } };
            const what = body.values.title ? `title ${body.values.title}` : "messages";
            if (what.startsWith("title") && busy) {
              writes.push(`${what}: busy`);
              return Response.json({ detail: "Thread is busy" }, { status: 409 });
            }
            writes.push(what);
            return Response.json({ checkpoint: { checkpoint_id: "c" } });
          }
          return Response.json({ detail: "not here" }, { status: 404 });
        },
      },
    );
    const post = (values: unknown, extra = {}) =>
      fwd.handle(new Request("http://127.0.0.1:3000/api/langgraph/threads/t1/state", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ values, ...extra }) }));
    const rename = await post({ title: "My trip" });
    expect(rename.status).toBeLessThan(300);
    const kept = await post({ messages: [{ type: "ai", id: "a1", content: "Tides are", response_metadata: { threadline_stopped: true } }] }, { as_node: "TitleMiddleware.after_agent" });
    expect(kept.status).toBe(200);
    expect(writes).toEqual(["title My trip: busy", "title My trip", "messages"]);
  });
});
