import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { HTTPException } from "@langchain/langgraph-sdk/auth";
import { startLanggraphDev, type LanggraphDevServer } from "@/lib/agent/testing/langgraph-dev-server";
import { FORWARDED_IDENTITY_HEADER, mintForwardedIdentity } from "../auth/forwarded-identity";
import { guardConfigFromEnv } from "../auth/request-guard";
import { createForwarder, type Forwarder } from "./forward";

// Accounts on, the web app in front of `langgraph dev` (which loads lib/server/auth/langgraph-auth.ts
// through langgraph.json): the forwarder names each caller with a signed token, and the shared
// Auth rules isolate the two users there exactly as on the embedded API.
const SECRET = "forward-secret-for-tests-0123456789abcdef";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-fwd-accounts-"));
let server: LanggraphDevServer | undefined;
let fwd: Forwarder;
const ORIGIN = "http://127.0.0.1:4772";

// Stands in for the session lookup (better-auth, another change): the test names the caller.
const resolveUser = async (req: Request) => {
  const who = req.headers.get("x-test-user");
  if (!who) throw new HTTPException(401, { message: "Sign in to use this app" });
  return { identity: who, permissions: [] };
};

const as = (user: string) =>
  new Client({
    apiUrl: `${ORIGIN}/api/langgraph`,
    defaultHeaders: { "x-test-user": user },
    callerOptions: { maxRetries: 0, fetch: (input: RequestInfo | URL, init?: RequestInit) => fwd.serve(new Request(input, init)) },
  });

const statusOf = async (p: Promise<unknown>) => p.then(() => 200, (e: { status?: number }) => e.status ?? -1);

beforeAll(async () => {
  server = await startLanggraphDev({ THREADLINE_AUTH: "accounts", THREADLINE_FORWARD_SECRET: SECRET, DATA_DIR: dir });
  fwd = createForwarder({ apiUrl: server.apiUrl, apiKey: null, mode: "accounts", secret: SECRET, guard: guardConfigFromEnv({}), searchScan: 5000 }, { resolveUser });
}, 100_000);

afterAll(() => {
  server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("forwarded identities on langgraph dev", () => {
  it("each forwarded user owns their threads; the other cannot see, read or rename them", async () => {
    const ana = as("user-ana");
    const bo = as("user-bo");
    const t = await ana.threads.create({ metadata: { topic: "porto" } });
    await ana.runs.wait(t.thread_id, "agent", { input: { messages: [{ type: "human", content: "Plan a weekend in Porto" }] } });
    expect((await ana.threads.get(t.thread_id)).metadata).toMatchObject({ owner: "user-ana" });
    const mine = await bo.threads.create();
    await bo.runs.wait(mine.thread_id, "agent", { input: { messages: [{ type: "human", content: "Hello" }] } });

    // langgraph dev keeps earlier runs' threads (.langgraph_api): compare owners, not counts.
    const anaSees = await ana.threads.search({ limit: 1000 });
    const boSees = await bo.threads.search({ limit: 1000 });
    expect(anaSees.map((x) => x.thread_id)).toContain(t.thread_id);
    expect(boSees.map((x) => x.thread_id)).toContain(mine.thread_id);
    expect(new Set(anaSees.map((x) => x.metadata?.owner))).toEqual(new Set(["user-ana"]));
    expect(new Set(boSees.map((x) => x.metadata?.owner))).toEqual(new Set(["user-bo"]));
    expect(await statusOf(bo.threads.get(t.thread_id))).toBe(404);
    expect(await statusOf(bo.threads.getState(t.thread_id))).toBe(404);
    expect(await statusOf(bo.threads.updateState(t.thread_id, { values: { title: "Taken" } }))).toBe(404);
    expect((await ana.threads.getState<{ title: string }>(t.thread_id)).values.title).toBe("Plan a weekend in Porto");
    // Nobody signed in: refused by the web app before anything reaches the server.
    const anon = new Client({ apiUrl: `${ORIGIN}/api/langgraph`, callerOptions: { maxRetries: 0, fetch: (i: RequestInfo | URL, n?: RequestInit) => fwd.serve(new Request(i, n)) } });
    expect(await statusOf(anon.threads.search())).toBe(401);
  }, 90_000);

  it("the server accepts only fresh tokens signed with the shared secret", async () => {
    const search = (token?: string) =>
      fetch(`${server!.apiUrl}/threads/search`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(token ? { [FORWARDED_IDENTITY_HEADER]: token } : {}) },
        body: "{}",
      }).then((r) => r.status);
    expect(await search(mintForwardedIdentity({ identity: "user-ana" }, SECRET))).toBe(200);
    expect(await search()).toBe(401);
    expect(await search(mintForwardedIdentity({ identity: "user-ana" }, "another-secret-that-is-long-enough-1234"))).toBe(401);
    expect(await search(mintForwardedIdentity({ identity: "user-ana" }, SECRET, Date.now() - 120_000))).toBe(401);
    const [v, , sig] = mintForwardedIdentity({ identity: "user-ana" }, SECRET).split(".");
    const forged = Buffer.from(JSON.stringify({ sub: "user-bo", exp: Math.floor(Date.now() / 1000) + 60 })).toString("base64url");
    expect(await search([v, forged, sig].join("."))).toBe(401);
  }, 30_000);
});
