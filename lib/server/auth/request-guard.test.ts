import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test-harness";
import { guardConfigFromEnv } from "./request-guard";

// Requests as the network delivers them to api.serve (the API route's entry): Host and Origin set.
let h: Harness;
beforeEach(() => {
  h = createHarness({ guard: guardConfigFromEnv({ THREADLINE_CORS_ORIGINS: "https://ui.example" }) });
});
afterEach(() => h.close());

function send(path: string, headers: Record<string, string>, init: RequestInit = {}) {
  return h.api.serve(new Request(`http://127.0.0.1:3000/api/langgraph${path}`, { ...init, headers }));
}
const postJson = { method: "POST", body: "{}" };
const json = { "Content-Type": "application/json" };

describe("gzip only off loopback", () => {
  it("answers a client on this machine with no-transform (Next then sends it unzipped); other hosts keep their gzip", async () => {
    await h.close();
    h = createHarness({ guard: guardConfigFromEnv({ THREADLINE_ALLOWED_HOSTS: "chat.example" }) });
    for (const host of ["127.0.0.1:3000", "localhost", "[::1]:3000"]) {
      const page = await send("/threads/search", { host, ...json }, postJson);
      expect(page.headers.get("cache-control"), host).toBe("no-store, no-transform");
      const bad = await send("/threads/search", { host, ...json }, { method: "POST", body: "{not json" });
      expect(bad.status).toBe(422);
      expect(bad.headers.get("cache-control"), host).toMatch(/no-transform/);
    }
    const remote = await send("/threads/search", { host: "chat.example", ...json }, postJson);
    expect(remote.status).toBe(200);
    expect(remote.headers.get("cache-control")).toBe("no-store");
  });
});

describe("Host allowlist (DNS rebinding)", () => {
  it("answers the loopback names on any port and refuses any other Host with 403 {detail}", async () => {
    for (const host of ["localhost:3000", "127.0.0.1:49152", "[::1]:3000", "LOCALHOST"]) {
      expect((await send("/threads/search", { host, ...json }, postJson)).status, host).toBe(200);
    }
    for (const host of ["evil.example", "evil.example:3000", "127.0.0.1.evil.example", "[::2]:3000"]) {
      const res = await send("/info", { host });
      expect(res.status, host).toBe(403);
      expect(await res.json()).toEqual({ detail: expect.stringContaining("THREADLINE_ALLOWED_HOSTS") });
    }
  });

  it("adds THREADLINE_ALLOWED_HOSTS and the host of BETTER_AUTH_URL", () => {
    const cfg = guardConfigFromEnv({ THREADLINE_ALLOWED_HOSTS: "chat.example, box:8080", BETTER_AUTH_URL: "https://threads.example.org" });
    expect([...cfg.allowedHosts].sort()).toEqual(["127.0.0.1", "[::1]", "box:8080", "chat.example", "localhost", "threads.example.org"]);
    expect(() => guardConfigFromEnv({ THREADLINE_CORS_ORIGINS: "not a url" })).toThrow(/THREADLINE_CORS_ORIGINS/);
  });

  it("the in-process path (server components) is not a network request and is not checked", async () => {
    const res = await h.api.handle(new Request("http://threadline.internal/api/langgraph/threads/search", { ...postJson, headers: json }));
    expect(res.status).toBe(200);
  });
});

describe("cross-site requests", () => {
  const host = "127.0.0.1:3000";

  it("refuses a cross-origin write (with or without a cookie) with 403, and nothing is created", async () => {
    for (const cookie of [{}, { cookie: "better-auth.session_token=abc" }] as Record<string, string>[]) {
      const res = await send("/threads", { host, origin: "https://evil.example", ...json, ...cookie }, postJson);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ detail: expect.stringContaining("Cross-origin") });
    }
    expect(await h.client.threads.search()).toEqual([]);
  });

  it("lets same-origin writes, cookieless writes without Origin (SDK from Node) and API-key writes through", async () => {
    expect((await send("/threads", { host, origin: "http://127.0.0.1:3000", ...json }, postJson)).status).toBe(200);
    expect((await send("/threads", { host, ...json }, postJson)).status).toBe(200);
    expect((await send("/threads", { host, origin: "https://ui.example", "x-api-key": "k", ...json }, postJson)).status).toBe(200);
    expect((await send("/threads", { host, "x-api-key": "k", cookie: "better-auth.session_token=abc", ...json }, postJson)).status).toBe(200);
  });

  it("a write with the session cookie and no Origin is 403 {detail}, nothing created; reads without Origin pass", async () => {
    for (const cookie of ["better-auth.session_token=abc", "theme=dark; __Secure-better-auth.session_token=abc"]) {
      for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
        const res = await send("/threads", { host, cookie, ...json }, { method, body: "{}" });
        expect(res.status, `${method} ${cookie}`).toBe(403);
        expect(await res.json()).toEqual({ detail: expect.stringContaining("Origin") });
      }
    }
    expect(await h.client.threads.search()).toEqual([]);
    expect((await send("/info", { host, cookie: "better-auth.session_token=abc" })).status).toBe(200);
    // Another cookie that merely ends in the same name is not the session cookie.
    expect((await send("/threads", { host, cookie: "my-better-auth.session_token=abc", ...json }, postJson)).status).toBe(200);
  });

  it("a text/plain POST with a session cookie is 415 (a form cannot smuggle JSON)", async () => {
    const res = await send("/threads", { host, origin: "http://127.0.0.1:3000", "content-type": "text/plain", cookie: "better-auth.session_token=abc" }, postJson);
    expect(res.status).toBe(415);
  });

  it("CORS is off by default: a preflight from an unlisted origin is 403 and carries no CORS headers", async () => {
    const res = await send("/threads", { host, origin: "https://other.example", "access-control-request-method": "POST" }, { method: "OPTIONS" });
    expect(res.status).toBe(403);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const read = await send("/info", { host, origin: "https://other.example" });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("a listed origin gets its preflight answered and may call with an API key", async () => {
    const pre = await send("/threads/search", { host, origin: "https://ui.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-api-key" }, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/X-Api-Key/i);
    const res = await send("/threads/search", { host, origin: "https://ui.example", "x-api-key": "k", ...json }, postJson);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    expect(res.headers.get("access-control-expose-headers")).toMatch(/Content-Location/);
    // Without a key even a listed origin may not write (its users' cookies are not credentials here).
    expect((await send("/threads", { host, origin: "https://ui.example", ...json }, postJson)).status).toBe(403);
  });
});

describe("the strict form (sign-in and key settings: keysExempt false)", () => {
  it("refuses a cross-origin write even with a key header, and every cross-origin preflight, also from a CORS origin", async () => {
    const { guardRequest } = await import("./request-guard");
    const cfg = guardConfigFromEnv({ THREADLINE_CORS_ORIGINS: "https://ui.example" });
    const req = (method: string, headers: Record<string, string>) => new Request("http://127.0.0.1:3000/api/auth/sign-out", { method, headers: { host: "127.0.0.1:3000", ...headers } });
    const crossWithKey = req("POST", { origin: "https://ui.example", "x-api-key": "k" });
    expect(guardRequest(crossWithKey, cfg)).toBeNull(); // the API's rule: keys pass
    expect(guardRequest(crossWithKey, cfg, { keysExempt: false })?.status).toBe(403);
    expect(guardRequest(req("OPTIONS", { origin: "https://ui.example" }), cfg)?.status).toBe(204);
    expect(guardRequest(req("OPTIONS", { origin: "https://ui.example" }), cfg, { keysExempt: false })?.status).toBe(403);
    expect(guardRequest(req("POST", { origin: "http://127.0.0.1:3000" }), cfg, { keysExempt: false })).toBeNull();
    // Without Origin, a cookie write is refused here too, and a key header does not excuse it.
    const cookie = "better-auth.session_token=abc";
    expect(guardRequest(req("POST", { cookie, "x-api-key": "k" }), cfg, { keysExempt: false })?.status).toBe(403);
    expect(guardRequest(req("POST", { cookie, "x-api-key": "k" }), cfg)).toBeNull();
    expect(guardRequest(req("POST", {}), cfg, { keysExempt: false })).toBeNull(); // a sign-in has no cookie yet
  });

  it('origin: "always" (key settings) refuses every write without Origin, cookie or not; reads and same-origin writes pass', async () => {
    const { guardRequest } = await import("./request-guard");
    const cfg = guardConfigFromEnv({});
    const req = (method: string, headers: Record<string, string>) => new Request("http://127.0.0.1:3000/api/account/keys", { method, headers: { host: "127.0.0.1:3000", ...headers } });
    const strict = { keysExempt: false, origin: "always" } as const;
    const bare = guardRequest(req("POST", {}), cfg, strict);
    expect(bare?.status).toBe(403);
    expect(await bare?.json()).toEqual({ detail: "A same-origin Origin header is required" });
    expect(guardRequest(req("DELETE", { "x-api-key": "k" }), cfg, strict)?.status).toBe(403);
    expect(guardRequest(req("GET", {}), cfg, strict)).toBeNull();
    expect(guardRequest(req("POST", { origin: "http://127.0.0.1:3000" }), cfg, strict)).toBeNull();
  });
});

describe("CORS in accounts mode, with real keys", () => {
  let acc: Harness;
  beforeEach(() => {
    acc = createHarness({ authMode: "accounts", guard: guardConfigFromEnv({ THREADLINE_CORS_ORIGINS: "https://ui.example" }) });
  });
  afterEach(() => acc.close());
  const host = "127.0.0.1:3000";
  const call = (origin: string, key: string, method = "POST") =>
    acc.api.serve(new Request(`http://${host}/api/langgraph/threads/search`, { method, headers: { host, origin, "x-api-key": key, ...json }, body: method === "POST" ? "{}" : undefined }));

  it("a listed origin: a valid key → 200, an unknown or revoked key → 401 {detail} the page can read", async () => {
    const { key } = await acc.api.auth.keys.create("user-a", "ui");
    const ok = await call("https://ui.example", key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    const unknown = await call("https://ui.example", "tl_unknown-key");
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    expect(await unknown.json()).toEqual({ detail: expect.stringContaining("API key") });
    const [listed] = await acc.api.auth.keys.list("user-a");
    expect(await acc.api.auth.keys.revoke("user-a", listed.id)).toBe(true);
    const revoked = await call("https://ui.example", key);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("access-control-allow-origin")).toBe("https://ui.example");
    expect(revoked.headers.get("access-control-expose-headers")).toMatch(/Content-Location/);
  });

  it("an unlisted origin with a valid key → 403 {detail}, no CORS headers, nothing created", async () => {
    const { key } = await acc.api.auth.keys.create("user-a", "ui");
    for (const method of ["POST", "GET"]) {
      const res = await acc.api.serve(new Request(`http://${host}/api/langgraph/threads`, { method, headers: { host, origin: "https://other.example", "x-api-key": key, ...json }, body: method === "POST" ? "{}" : undefined }));
      expect(res.status, method).toBe(403);
      expect(res.headers.get("access-control-allow-origin")).toBeNull();
      expect(await res.json()).toEqual({ detail: expect.stringContaining("THREADLINE_CORS_ORIGINS") });
    }
    expect(await acc.clientWithKey(key).threads.search()).toEqual([]);
  });
});
