import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { startLanggraphDev, type LanggraphDevServer } from "@/lib/agent/testing/langgraph-dev-server";
import * as authRoute from "@/app/api/auth/[...all]/route";
import * as keysRoute from "@/app/api/account/keys/[[...id]]/route";
import * as apiRoute from "@/app/api/langgraph/[...path]/route";
import { openAtStart } from "../app-api";
import { getRemote } from "./index";
import { attemptsOfB, expectSearchesIsolated, seedThreadOfA, snapshotOf, type IsolationTarget } from "../auth/isolation-suite";
import { ORIGIN, PASSWORD, sessionCookieOf, someIp } from "../auth/session-testing";

/**
 * LANGGRAPH_API_URL + THREADLINE_AUTH=accounts at the user's boundary: people sign up through
 * better-auth's real handler and use the session cookie it sets, or an API key made through our key
 * routes; every request goes through the app's own route handlers (app/api/…/route.ts), so through
 * the forwarder and the session/key resolver exactly as the app wires them (lib/server/remote,
 * getAccountsHost), to a real `langgraph dev` that runs the shared Auth rules on the signed token.
 */
const SECRET = "forward-secret-for-tests-0123456789abcdef";
const root = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-web-accounts-"));
const webDir = path.join(root, "web");
const lgDir = path.join(root, "langgraph");
let server: LanggraphDevServer | undefined;

type RouteHandler = (req: Request, ctx?: unknown) => Promise<Response>;
const byMethod = (mod: object, req: Request, ctx?: unknown) => (mod as Record<string, RouteHandler>)[req.method](req, ctx);

/** Next's routing of the three route files this mode serves, with their params as Next passes them. */
function app(req: Request): Promise<Response> {
  const p = new URL(req.url).pathname;
  if (p.startsWith("/api/langgraph/")) return byMethod(apiRoute, req);
  if (p.startsWith("/api/auth/")) return byMethod(authRoute, req);
  const keys = /^\/api\/account\/keys(?:\/(.+))?$/.exec(p);
  if (keys) return byMethod(keysRoute, req, { params: Promise.resolve({ id: keys[1]?.split("/") }) });
  return Promise.resolve(Response.json({ detail: "Not found" }, { status: 404 }));
}

const toApp = (u: RequestInfo | URL, i?: RequestInit) => app(new Request(u, i));
/** The official SDK as a browser on our pages uses it: the session cookie and its Origin, no key. */
const withCookie = (cookie: string) =>
  new Client({ apiUrl: `${ORIGIN}/api/langgraph`, apiKey: null, defaultHeaders: { cookie, origin: ORIGIN }, callerOptions: { maxRetries: 0, fetch: toApp } });
/** The SDK from a script: an API key only. */
const withKey = (key: string) => new Client({ apiUrl: `${ORIGIN}/api/langgraph`, apiKey: key, callerOptions: { maxRetries: 0, fetch: toApp } });

async function signUp(email: string) {
  const res = await app(
    new Request(`${ORIGIN}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN, "x-forwarded-for": someIp() },
      body: JSON.stringify({ name: email.split("@")[0], email, password: PASSWORD }),
    }),
  );
  if (res.status !== 200) throw new Error(`sign-up of ${email} answered ${res.status}: ${await res.text()}`);
  const cookie = sessionCookieOf(res);
  expect(cookie).toMatch(/session_token=/);
  return { id: ((await res.json()) as { user: { id: string } }).user.id, cookie };
}

const keyRequest = (cookie: string, method: string, id = "", body?: unknown) =>
  app(
    new Request(`${ORIGIN}/api/account/keys${id ? `/${id}` : ""}`, {
      method,
      headers: { cookie, Origin: ORIGIN, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );

const statusOf = (p: Promise<unknown>) => p.then(() => 200, (e: { status?: number }) => e.status ?? -1);
const ids = (rows: { thread_id: string }[]) => rows.map((r) => r.thread_id);

let a: { id: string; cookie: string };
let b: { id: string; cookie: string };
let t: IsolationTarget;

beforeAll(async () => {
  // The offline model streams slowly enough for a rename to meet a running run.
  server = await startLanggraphDev({ THREADLINE_AUTH: "accounts", THREADLINE_FORWARD_SECRET: SECRET, DATA_DIR: lgDir, OFFLINE_MODEL_DELAY_MS: "40" });
  // The web server's environment, as `next start` would have it (read when first asked).
  for (const name of ["DATABASE_URL", "BETTER_AUTH_SECRET", "BETTER_AUTH_URL", "LANGSMITH_API_KEY", "THREADLINE_ALLOWED_HOSTS", "THREADLINE_CORS_ORIGINS", "THREADLINE_TRUSTED_PROXY_HEADER"]) {
    delete process.env[name];
  }
  Object.assign(process.env, { LANGGRAPH_API_URL: server.apiUrl, THREADLINE_AUTH: "accounts", THREADLINE_FORWARD_SECRET: SECRET, DATA_DIR: webDir });
  await openAtStart(); // what instrumentation-node.ts does at start
  a = await signUp("ana@example.com");
  b = await signUp("ben@example.com");
  t = {
    a: withCookie(a.cookie),
    b: withCookie(b.cookie),
    keyB: b.cookie,
    raw: (p, cookie, init = {}) => {
      const headers = new Headers({ origin: ORIGIN, ...Object.fromEntries(new Headers(init.headers)) });
      if (cookie) headers.set("cookie", cookie);
      return app(new Request(`${ORIGIN}/api/langgraph${p}`, { ...init, headers }));
    },
    // A plain `{ title }`: the forwarder turns it into the pinned rename the LangGraph server takes.
    rename: (client, id, title) => client.threads.updateState(id, { values: { title } }),
    threadlineRoutes: false,
    titleSearch: "current-titles",
  };
}, 120_000);

afterAll(() => {
  server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("accounts in front of langgraph dev, through the app's routes", () => {
  it("B is refused on every route of A's thread (get, state, rename, runs…), and A's thread is unchanged", async () => {
    const seeded = await seedThreadOfA(t);
    const before = await snapshotOf(t.a, seeded.id);
    // The owner langgraph dev stamped is A's better-auth user id: the session named A there.
    expect(before.metadata).toMatchObject({ owner: a.id, topic: "porto-trip" });
    expect(before.values).toMatchObject({ title: "Lisbon notes", title_source: { kind: "user" } });
    const outcomes = await attemptsOfB(t, seeded);
    // langgraph dev's own answers where they are not 404 (as in isolation-langgraph-dev.test.ts);
    // none of them holds anything of A's thread ("200:LEAK" would say so).
    const langgraphAnswers: Record<string, string> = {
      createSameId: "409",
      createSameIdRaise: "409",
      copy: "409",
      runJoinViaOwnThread: "200",
      checkpointViaOwnThread: "200",
      checkpointPostViaOwnThread: "200",
    };
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(outcomes).map((k) => [k, langgraphAnswers[k] ?? "404"])));
    expect(await snapshotOf(t.a, seeded.id)).toEqual(before);
  }, 120_000);

  it("B's searches (plain, metadata, A's exact title) return none of A's threads; A's do", async () => {
    const seeded = await seedThreadOfA(t);
    await expectSearchesIsolated(t, seeded.id);
    expect(ids(await t.a.threads.search({ values: { title: "Lisbon notes" }, limit: 100 }))).toContain(seeded.id);
    expect(await t.b.threads.search({ values: { title: "Lisbon notes" }, limit: 100 })).toEqual([]);
  }, 90_000);

  it("B's rename of A's busy thread is refused too: A's waiting rename is neither replaced nor shown as B's", async () => {
    const { thread_id: id } = await t.a.threads.create();
    const stream = t.a.runs.stream(id, "agent", {
      input: { messages: [{ type: "human", content: "Tell me a long story about lighthouses and the sea" }] },
      streamMode: ["values"],
    });
    const run = stream[Symbol.asyncIterator]();
    // Wait for the run's instant title, so both renames really meet a running run.
    for (;;) {
      const { value, done } = await run.next();
      if (done) throw new Error("the run ended before its first title");
      if ((value?.data as { title?: string } | undefined)?.title) break;
    }
    expect(await t.a.threads.updateState(id, { values: { title: "Lighthouse tales" } })).toMatchObject({ title: "Lighthouse tales", pending: true });
    expect(await statusOf(t.b.threads.updateState(id, { values: { title: "Mine now" } }))).toBe(404);
    expect((await t.a.threads.getState<{ title: string }>(id)).values.title).toBe("Lighthouse tales");
    while (!(await run.next()).done);
    expect(await getRemote()!.renames.settled(id)).toBe(true);
    expect((await t.a.threads.getState(id)).values).toMatchObject({ title: "Lighthouse tales", title_source: { kind: "user" } });
  }, 90_000);

  it("A's API key (made through /api/account/keys) acts as A, and is 401 once revoked", async () => {
    const seeded = await seedThreadOfA(t);
    const made = await keyRequest(a.cookie, "POST", "", { name: "laptop" });
    expect(made.status).toBe(201);
    const { id, key } = (await made.json()) as { id: string; key: string };
    const viaKey = withKey(key);
    const found = await viaKey.threads.search({ limit: 1000 });
    expect(ids(found)).toContain(seeded.id);
    expect(new Set(found.map((r) => r.metadata?.owner))).toEqual(new Set([a.id]));
    expect((await viaKey.threads.getState<{ title: string }>(seeded.id)).values.title).toBe("Lisbon notes");
    // B's session cannot revoke A's key.
    expect((await keyRequest(b.cookie, "DELETE", id)).status).toBe(404);
    expect(await statusOf(viaKey.threads.get(seeded.id))).toBe(200);

    expect((await keyRequest(a.cookie, "DELETE", id)).status).toBe(204);
    expect(await statusOf(viaKey.threads.search())).toBe(401);
    expect(await statusOf(viaKey.threads.get(seeded.id))).toBe(401);
    expect(await statusOf(withKey(`${key}x`).threads.search())).toBe(401);
  }, 90_000);

  it("signed out (no cookie, a forged one, or after sign-out) → 401; nothing is forwarded as anyone", async () => {
    const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const forged = a.cookie.replace(/=([^.]*)\./, "=forgedtoken123.");
    for (const cookie of [null, forged, "better-auth.session_token=nope"]) {
      const res = await t.raw("/threads/search", cookie, json({}));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
    expect((await t.raw("/threads/search", a.cookie, json({}))).status).toBe(200);
    // Only /info is open to anyone (a health check), as on the embedded API and the LangGraph server.
    expect((await t.raw("/info", null)).status).toBe(200);
    const out = await app(new Request(`${ORIGIN}/api/auth/sign-out`, { method: "POST", headers: { "Content-Type": "application/json", Origin: ORIGIN, cookie: a.cookie }, body: "{}" }));
    expect(out.status).toBe(200);
    expect((await t.raw("/threads/search", a.cookie, json({}))).status).toBe(401);
    expect((await keyRequest(a.cookie, "GET")).status).toBe(401);
  }, 60_000);

  it("the web server opened only the accounts database: no agent, no embedded API, no checkpoint tables", () => {
    const g = globalThis as Record<symbol, unknown>;
    expect(g[Symbol.for("threadline.appAgent")]).toBeUndefined();
    expect(g[Symbol.for("threadline.api")]).toBeUndefined();
    const db = new Database(path.join(webDir, "threadline.sqlite"), { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
      expect(tables).toEqual(expect.arrayContaining(["user", "session", "account", "tl_api_keys"]));
      // SqliteSaver's tables: made by the checkpointer's setup, which only the embedded API runs.
      expect(tables).not.toContain("checkpoints");
      expect(tables).not.toContain("writes");
      // The users live here, not on the LangGraph server (which knows them only by the token).
      expect(db.prepare(`SELECT count(*) FROM "user"`).pluck().get()).toBe(2);
    } finally {
      db.close();
    }
    // Keys were checked here too: langgraph dev got only tokens and never opened its own key store.
    expect(fs.existsSync(path.join(lgDir, "threadline.sqlite"))).toBe(false);
  });
});
