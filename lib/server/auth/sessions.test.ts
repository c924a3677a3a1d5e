import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHarness, TEST_AUTH_SECRET, type Harness } from "../test-harness";
import { guardConfigFromEnv } from "./request-guard";
import { serveAuthRoute, serveKeySettings } from "./account-routes";
import { SIGN_IN_LIMIT, SIGN_UP_LIMIT } from "./accounts";
import { FAILED_SIGN_IN_LIMIT } from "./sign-in-limit";
import { attemptsOfB, expectSearchesIsolated, seedThreadOfA, snapshotOf, type IsolationTarget } from "./isolation-suite";
import { authRequest, clientWithCookie, ORIGIN, PASSWORD, signUp } from "./session-testing";

/** Accounts mode with people signed in through better-auth's real handler (session cookies). */
let h: Harness;
let a: { id: string; cookie: string };
let b: { id: string; cookie: string };
let t: IsolationTarget;

/** As a browser on our pages sends it: the cookie, and Origin (a test may override or drop it). */
const raw = (path: string, cookie: string | null, init: RequestInit = {}) => {
  const headers = new Headers({ origin: ORIGIN, ...Object.fromEntries(new Headers(init.headers)) });
  if (headers.get("origin") === "") headers.delete("origin");
  if (cookie) headers.set("cookie", cookie);
  return h.api.serve(new Request(`${ORIGIN}/api/langgraph${path}`, { ...init, headers }));
};

beforeEach(async () => {
  h = createHarness({ authMode: "accounts" });
  a = await signUp(h.api, "ana@example.com");
  b = await signUp(h.api, "ben@example.com");
  t = {
    a: clientWithCookie(h.api, a.cookie),
    b: clientWithCookie(h.api, b.cookie),
    keyB: b.cookie,
    raw,
    rename: (client, id, title) => client.threads.updateState(id, { values: { title } }),
    threadlineRoutes: true,
    titleSearch: "all-titles",
  };
});
afterEach(() => h.close());

describe("isolation when users are identified by better-auth session cookies", () => {
  it("B gets 404 on every route of A's thread, and A's thread is unchanged", async () => {
    const seeded = await seedThreadOfA(t);
    const before = await snapshotOf(t.a, seeded.id);
    expect(before.metadata).toMatchObject({ owner: a.id, topic: "porto-trip" });
    const outcomes = await attemptsOfB(t, seeded);
    const expected = Object.fromEntries(Object.keys(outcomes).map((k) => [k, "404"]));
    expect(outcomes).toEqual(expected);
    expect(await snapshotOf(t.a, seeded.id)).toEqual(before);
  }, 60_000);

  it("B's searches (plain, metadata, $title_search with A's former title) return none of A's threads", async () => {
    const seeded = await seedThreadOfA(t);
    await expectSearchesIsolated(t, seeded.id);
  }, 30_000);
});

describe("no identity, cross-site bodies and origins with a real session cookie", () => {
  const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

  it("no cookie, a forged cookie, or a signed-out session → 401 {detail}", async () => {
    const forged = a.cookie.replace(/=([^.]*)\./, "=forgedtoken123.");
    for (const cookie of [null, forged, "better-auth.session_token=nope"]) {
      const res = await raw("/threads/search", cookie, jsonPost({}));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
    expect((await raw("/threads/search", a.cookie, jsonPost({}))).status).toBe(200);
    const out = await authRequest(h.api, "/sign-out", {}, { cookie: a.cookie });
    expect(out.status).toBe(200);
    expect((await raw("/threads/search", a.cookie, jsonPost({}))).status).toBe(401);
  });

  it("a text/plain state-changing POST with a session cookie → 415, nothing created", async () => {
    const res = await raw("/threads", a.cookie, { method: "POST", headers: { "Content-Type": "text/plain" }, body: JSON.stringify({ metadata: { x: 1 } }) });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
    const keys = await serveKeySettings(h.api, new Request(`${ORIGIN}/api/account/keys`, { method: "POST", headers: { cookie: a.cookie, Origin: ORIGIN, "Content-Type": "text/plain" }, body: '{"name":"x"}' }), null);
    expect(keys.status).toBe(415);
    const signIn = await authRequest(h.api, "/sign-in/email", {}, { cookie: a.cookie, "Content-Type": "text/plain" });
    expect(signIn.status).toBe(415);
    expect(await t.a.threads.search({ limit: 10 })).toEqual([]);
    expect(await h.api.auth.keys.list(a.id)).toEqual([]);
  });

  it("a cross-origin POST with a session cookie → 403 on the API, /api/auth and the key settings", async () => {
    const evil = { Origin: "https://evil.example" };
    const api = await raw("/threads", a.cookie, jsonPost({}, evil));
    expect(api.status).toBe(403);
    const signOut = await authRequest(h.api, "/sign-out", {}, { cookie: a.cookie, ...evil });
    expect(signOut.status).toBe(403);
    // Still signed in: the refused sign-out changed nothing.
    expect((await raw("/threads/search", a.cookie, jsonPost({}))).status).toBe(200);
    const keys = await serveKeySettings(h.api, new Request(`${ORIGIN}/api/account/keys`, { ...jsonPost({ name: "x" }, evil), headers: { cookie: a.cookie, "Content-Type": "application/json", ...evil } }), null);
    expect(keys.status).toBe(403);
    // A key header does not buy a cookie a cross-origin pass on the browser-only routes.
    const withKeyHeader = await authRequest(h.api, "/sign-out", {}, { cookie: a.cookie, "x-api-key": "anything", ...evil });
    expect(withKeyHeader.status).toBe(403);
    expect(await t.a.threads.search({ limit: 10 })).toEqual([]);
  });

  it("a write with the session cookie and no Origin → 403 {detail} on the API and /api/auth, nothing changed", async () => {
    const res = await raw("/threads", a.cookie, jsonPost({ metadata: { x: 1 } }, { origin: "" }));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: expect.stringContaining("Origin") });
    const signOut = await serveAuthRoute(h.api, new Request(`${ORIGIN}/api/auth/sign-out`, { ...jsonPost({}), headers: { cookie: a.cookie, "Content-Type": "application/json" } }));
    expect(signOut.status).toBe(403);
    // Still signed in, and nothing was created; the same write with Origin passes.
    expect(await t.a.threads.search({ limit: 10 })).toEqual([]);
    expect((await raw("/threads", a.cookie, jsonPost({}))).status).toBe(200);
  });

  it("a key header is judged alone: a bad key beside a good cookie is 401, not the cookie's user", async () => {
    const res = await raw("/threads/search", a.cookie, { ...jsonPost({}), headers: { "Content-Type": "application/json", "x-api-key": "tl_wrong" } });
    expect(res.status).toBe(401);
  });
});

describe("cookie attributes from a real sign-up", () => {
  it("http: HttpOnly, SameSite=Lax, no Secure", async () => {
    const c = await signUp(h.api, "cat@example.com");
    const session = c.setCookie.find((s) => s.startsWith("better-auth.session_token="))!;
    expect(session).toMatch(/; HttpOnly/i);
    expect(session).toMatch(/; SameSite=Lax/i);
    expect(session).not.toMatch(/; Secure/i);
  });

  it("behind HTTPS (BETTER_AUTH_URL=https://…): Secure, with the __Secure- prefix", async () => {
    const secure = createHarness({
      authMode: "accounts",
      guard: guardConfigFromEnv({ BETTER_AUTH_URL: "https://chat.example" }),
      accounts: { secret: TEST_AUTH_SECRET, baseURL: "https://chat.example" },
    });
    try {
        const res = await serveAuthRoute(
        secure.api,
        new Request("https://chat.example/api/auth/sign-up/email", {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: "https://chat.example", "x-forwarded-for": "10.9.9.9" },
          body: JSON.stringify({ name: "Dee", email: "dee@example.com", password: PASSWORD }),
        }),
      );
      expect(res.status).toBe(200);
      const session = res.headers.getSetCookie().find((s) => s.includes("session_token="))!;
      expect(session).toMatch(/^__Secure-better-auth\.session_token=/);
      expect(session).toMatch(/; Secure/i);
      expect(session).toMatch(/; HttpOnly/i);
      expect(session).toMatch(/; SameSite=Lax/i);
    } finally {
      await secure.close();
    }
  });
});

describe("sign-in rate limit and logs", () => {
  it(`${SIGN_IN_LIMIT.max} bad sign-ins from one IP pass to better-auth (401), the next is 429; nothing logged holds the password`, async () => {
    const wrong = "Hunter2-wrong-password-zz9";
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args.map((x) => (typeof x === "string" ? x : JSON.stringify(x) ?? String(x))).join(" "))),
    );
    try {
      const ip = "10.200.0.7";
      const statuses: number[] = [];
      for (let i = 0; i <= SIGN_IN_LIMIT.max; i++) {
        const res = await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: wrong }, { "x-forwarded-for": ip });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([...Array(SIGN_IN_LIMIT.max).fill(401), 429]);
      // The right password from that IP is refused too while the window lasts; another IP signs in.
      expect((await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: PASSWORD }, { "x-forwarded-for": ip })).status).toBe(429);
      expect((await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: PASSWORD })).status).toBe(200);
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(logged.filter((l) => l.includes(wrong) || l.includes(PASSWORD))).toEqual([]);
  });

  it(`${FAILED_SIGN_IN_LIMIT.max} failed sign-ins for one account, each from another IP, then 429 {detail} with Retry-After, even for the right password`, async () => {
    const wrong = "not-ana-s-password";
    const statuses: number[] = [];
    // Each request from a fresh IP (authRequest's default): better-auth's per-IP limiter never bites.
    for (let i = 0; i < FAILED_SIGN_IN_LIMIT.max; i++) {
      statuses.push((await authRequest(h.api, "/sign-in/email", { email: i % 2 ? "ana@example.com" : "ANA@Example.com", password: wrong })).status);
    }
    expect(statuses).toEqual(Array(FAILED_SIGN_IN_LIMIT.max).fill(401));
    const limited = await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ detail: expect.stringContaining("Too many failed sign-ins") });
    const wait = Number(limited.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(FAILED_SIGN_IN_LIMIT.windowSeconds - 60);
    expect(wait).toBeLessThanOrEqual(FAILED_SIGN_IN_LIMIT.windowSeconds);
    // Another account is not affected, and its success clears nothing of Ana's.
    expect((await authRequest(h.api, "/sign-in/email", { email: "ben@example.com", password: PASSWORD })).status).toBe(200);
    expect((await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: PASSWORD })).status).toBe(429);
  }, 30_000);

  it("a parallel burst of guesses is counted as it starts: at most the limit reach a password check", async () => {
    const burst = await Promise.all(
      Array.from({ length: FAILED_SIGN_IN_LIMIT.max + 5 }, () => authRequest(h.api, "/sign-in/email", { email: "ben@example.com", password: "guess-guess-guess" })),
    );
    const statuses = burst.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(FAILED_SIGN_IN_LIMIT.max).fill(401), ...Array(5).fill(429)]);
  }, 30_000);

  it("a success clears the account's failures; an attempt refused before the password check (too long) is not counted", async () => {
    for (let i = 0; i < FAILED_SIGN_IN_LIMIT.max - 1; i++) await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: "wrong-wrong-wrong" });
    expect((await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < FAILED_SIGN_IN_LIMIT.max - 1; i++) await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: "wrong-wrong-wrong" });
    for (let i = 0; i < 3; i++) expect((await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: "x".repeat(200) })).status).toBe(400);
    expect((await authRequest(h.api, "/sign-in/email", { email: "ana@example.com", password: PASSWORD })).status).toBe(200);
  }, 30_000);

  it(`sign-up is limited too: ${SIGN_UP_LIMIT.max} from one IP, then 429`, async () => {
    const ip = "10.201.0.8";
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_UP_LIMIT.max; i++) {
      const res = await authRequest(h.api, "/sign-up/email", { name: `u${i}`, email: `u${i}@example.com`, password: PASSWORD }, { "x-forwarded-for": ip });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(SIGN_UP_LIMIT.max).fill(200), 429]);
  }, 30_000);
});
