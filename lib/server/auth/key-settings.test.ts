import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { createHarness, type Harness } from "../test-harness";
import { serveKeySettings } from "./account-routes";
import { ORIGIN, signUp } from "./session-testing";

/** The API-key settings endpoints (/api/account/keys): a session manages its own keys; keys work with the SDK. */
let h: Harness;
let a: { id: string; cookie: string };

const keysRequest = (method: string, id: string | null, headers: Record<string, string>, body?: unknown) =>
  serveKeySettings(
    h.api,
    new Request(`${ORIGIN}/api/account/keys${id ? `/${id}` : ""}`, {
      method,
      headers: { Origin: ORIGIN, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    id,
  );

const sdkWithKey = (key: string) =>
  new Client({ apiUrl: `${ORIGIN}/api/langgraph`, apiKey: key, callerOptions: { maxRetries: 0, fetch: ((u: string, i?: RequestInit) => h.api.serve(new Request(u, i))) as typeof fetch } });

beforeEach(async () => {
  h = createHarness({ authMode: "accounts" });
  a = await signUp(h.api, "ana@example.com");
});
afterEach(() => h.close());

describe("API-key settings", () => {
  it("create (key shown once), list (no key), use with the SDK, revoke → 401", async () => {
    const made = await keysRequest("POST", null, { cookie: a.cookie }, { name: "laptop" });
    expect(made.status).toBe(201);
    const key = (await made.json()) as { id: string; key: string; name: string; last_four: string };
    expect(key).toMatchObject({ name: "laptop", key: expect.stringMatching(/^tl_/), last_four: expect.any(String) });
    expect(key.key.endsWith(key.last_four)).toBe(true);

    const listed = await (await keysRequest("GET", null, { cookie: a.cookie })).json();
    expect(listed).toEqual({ keys: [{ id: key.id, name: "laptop", created_at: expect.any(String), last_four: key.last_four }] });
    expect(JSON.stringify(listed)).not.toContain(key.key);

    const sdk = sdkWithKey(key.key);
    const thread = await sdk.threads.create();
    expect(thread.metadata).toMatchObject({ owner: a.id });

    expect((await keysRequest("DELETE", key.id, { cookie: a.cookie })).status).toBe(204);
    await expect(sdk.threads.search()).rejects.toMatchObject({ status: 401 });
    expect((await keysRequest("DELETE", key.id, { cookie: a.cookie })).status).toBe(404);
  });

  it("needs a session: no cookie, or only an API key → 401; another user's key id → 404", async () => {
    expect((await keysRequest("GET", null, {})).status).toBe(401);
    const { key, id } = await h.api.auth.keys.create(a.id, "cli");
    expect((await keysRequest("POST", null, { "x-api-key": key }, { name: "minted" })).status).toBe(401);
    const b = await signUp(h.api, "ben@example.com");
    expect((await keysRequest("DELETE", id, { cookie: b.cookie })).status).toBe(404);
    expect(await h.api.auth.keys.verify(key)).toMatchObject({ userId: a.id });
  });

  it("same-origin JSON writes only: no Origin or another → 403, text/plain → 415, a bad name → 422", async () => {
    const noOrigin = await serveKeySettings(
      h.api,
      new Request(`${ORIGIN}/api/account/keys`, { method: "POST", headers: { cookie: a.cookie, "Content-Type": "application/json" }, body: '{"name":"x"}' }),
      null,
    );
    expect(noOrigin.status).toBe(403);
    expect((await keysRequest("POST", null, { cookie: a.cookie, Origin: "http://127.0.0.1:9999" }, { name: "x" })).status).toBe(403);
    expect((await keysRequest("POST", null, { cookie: a.cookie, "Content-Type": "text/plain" }, { name: "x" })).status).toBe(415);
    for (const body of [{ name: "" }, { name: "x".repeat(61) }, { nom: "x" }]) {
      const res = await keysRequest("POST", null, { cookie: a.cookie }, body);
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
    expect(await h.api.auth.keys.list(a.id)).toEqual([]);
  });
});
