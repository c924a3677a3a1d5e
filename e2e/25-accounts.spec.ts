import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { Client } from "@langchain/langgraph-sdk";
import { SIGN_IN_LIMIT } from "../lib/server/auth/accounts";
import { FAILED_SIGN_IN_LIMIT } from "../lib/server/auth/sign-in-limit";
import { AccountMenu, ApiKeysPage, AuthPage } from "./pages/AccountPages";
import { ChatPage } from "./pages/ChatPage";
import { expect, keptFileKeys, test } from "./support";
import { spawnServer, type SpawnedServer } from "./spawned-server";

/**
 * THREADLINE_AUTH=accounts on the built app: its own `next start` with a fresh DATA_DIR, people
 * signing up and in through the real pages (better-auth), and the isolation a person sees.
 */
const PORT = Number(process.env.E2E_PORT ?? 3217) + 52;
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD_A = "ana-secret-passphrase-1";
const PASSWORD_B = "ben-secret-passphrase-2";

type Server = SpawnedServer;
let server: Server | null = null;
let dataDir = "";

// Serial on one server. better-auth allows 5 sign-ins per IP per minute: these tests make 4.
test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: BASE });

/** `next start` in accounts mode on `port` with a fresh DATA_DIR, ready when /info answers. */
async function startAccountsServer(port: number, dir: string, env: Record<string, string> = {}): Promise<Server> {
  const started = spawnServer("node_modules/.bin/next", ["start", "-H", "127.0.0.1", "-p", String(port)], {
    THREADLINE_AUTH: "accounts",
    DATA_DIR: dir,
    THREADLINE_CORS_ORIGINS: "",
    THREADLINE_TRUSTED_PROXY_HEADER: "",
    ...env,
  });
  await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/api/langgraph/info`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
  return started;
}

test.beforeAll(async () => {
  // Fresh per start (a retried group starts again with nobody signed up).
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-accounts-e2e-"));
  server = await startAccountsServer(PORT, dataDir);
});

test.afterAll(async () => {
  server?.stop();
  await server?.exited;
  // Passwords were typed into the pages many times; the server never wrote one down.
  expect(server?.output() ?? "").not.toContain(PASSWORD_A);
  expect(server?.output() ?? "").not.toContain(PASSWORD_B);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let threadOfA = "";

/** Serious or critical axe violations, light and dark, on the page as it is now. */
async function axeLightAndDark(page: import("@playwright/test").Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    found.push(
      ...violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${where} ${colorScheme}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    );
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

test("sign up A, chat, pin a title, sign out; B sees nothing of A's; A signs back in to find it all", async ({ page, chat, sidebar }) => {
  const auth = new AuthPage(page);
  const menu = new AccountMenu(page);

  // Signed out, every page leads to sign-in.
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByTestId("auth-other").click();
  await expect(page).toHaveURL(/\/sign-up$/);

  await auth.signUp("Ana", "ana@example.com", PASSWORD_A);
  await expect(menu.root.getByTestId("account-name")).toHaveText("Ana");
  await chat.send("Plan a weekend in Porto with good food");
  threadOfA = await chat.threadId();
  await chat.waitForAnswerToFinish();
  await sidebar.rename(threadOfA, "Porto with Ana");
  await expect(sidebar.rowTitle(threadOfA)).toHaveText("Porto with Ana");
  await expect(sidebar.rowLock(threadOfA)).toBeVisible();
  // A leaves a draft with a file on the new-chat page: it must not outlive the sign-out.
  await chat.openNew();
  await chat.input.fill("Ana's unsent note");
  await chat.attach({ name: "ana-passport.txt", mimeType: "text/plain", buffer: Buffer.from("private\n") });
  await expect(page.getByTestId("composer-attachment")).toHaveCount(1);
  await menu.signOut();

  // Signed out: A's conversation URL leads to sign-in, not to the conversation.
  await page.goto(`/c/${threadOfA}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=${encodeURIComponent(`/c/${threadOfA}`)}$`));

  await auth.signUp("Ben", "ben@example.com", PASSWORD_B);
  await expect(menu.email).toHaveText("ben@example.com");
  await expect(sidebar.rows).toHaveCount(0);
  await chat.expectComposerText("");
  await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
  await page.reload();
  await chat.expectComposerText("");
  await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
  await page.goto(`/c/${threadOfA}`);
  await expect(page.getByTestId("conversation-not-found")).toBeVisible();
  await expect(page.getByText("Porto")).toHaveCount(0);
  await menu.signOut();

  // A wrong password says so and signs nobody in.
  await page.goto("/sign-in");
  await auth.email.fill("ana@example.com");
  await auth.password.fill("not-the-password");
  await auth.submit.click();
  await expect(auth.error).toHaveText("Wrong email or password.");

  await auth.signIn("ana@example.com", PASSWORD_A);
  await expect(sidebar.rowTitle(threadOfA)).toHaveText("Porto with Ana");
  await expect(sidebar.rowLock(threadOfA)).toBeVisible();
  await sidebar.link(threadOfA).click();
  await chat.expectTitle("Porto with Ana");
  await expect(chat.userMessages).toHaveText(["Plan a weekend in Porto with good food"]);
  await expect(chat.assistantMessages).toHaveCount(1);
});

test("a shared browser: a session that ended without a sign-out leaves the next person nothing, and the first person's other tab reloads as the next; a sign-out in one tab takes the other tab with it", async ({ page, context, chat }) => {
  const auth = new AuthPage(page);
  const chips = page.getByTestId("composer-attachment");
  const keptText = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("threadline:")).map((k) => localStorage.getItem(k)).join(" "));
  // Sign-ups, not sign-ins: this group's sign-ins are near the per-minute limit already.
  await auth.signUp("Dee", "dee@example.com", PASSWORD_A);
  await chat.expectComposerText("");
  await chat.input.fill("Dee's unsent note");
  await chat.attach({ name: "dee-payslip.txt", mimeType: "text/plain", buffer: Buffer.from("private\n") });
  await expect.poll(() => keptFileKeys(page)).toEqual(["draft:new"]);
  await page.reload();
  await chat.expectComposerText("Dee's unsent note");
  await expect(chips).toHaveCount(1);

  // A second tab still shows Dee.
  const second = await context.newPage();
  await second.goto("/");
  await expect(second.getByTestId("account-email").first()).toHaveText("dee@example.com");

  // Dee's session ends on the server's side (expired, or cleared): nobody signs out here.
  await context.clearCookies();
  await auth.signUp("Eve", "eve@example.com", PASSWORD_B);
  await chat.expectComposerText("");
  await expect(chips).toHaveCount(0);
  expect(await keptFileKeys(page)).toEqual([]);
  expect(await keptText()).not.toContain("Dee");
  // Dee's tab does not go on showing Dee's things under Eve's session: it reloads, as Eve.
  await expect(second.getByTestId("account-email").first()).toHaveText("eve@example.com");
  await new ChatPage(second).expectComposerText("");

  // Eve, in two tabs, signs out in one: the other goes to sign-in and keeps nothing of hers.
  await chat.input.fill("Eve's draft in the first tab");
  await chat.attach({ name: "eve-notes.txt", mimeType: "text/plain", buffer: Buffer.from("mine\n") });
  await expect.poll(() => keptFileKeys(page)).toEqual(["draft:new"]);
  await second.reload();
  await new ChatPage(second).expectComposerText("Eve's draft in the first tab");
  await new AccountMenu(second).signOut();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByTestId("sign-in-page")).toBeVisible();
  expect(await keptText()).not.toContain("Eve");
  expect(await keptFileKeys(page)).toEqual([]);
  await second.close();
});

// Playwright starts Chromium with its back/forward cache off, so the return is simulated: the
// owner changes while the page hears nothing (as a cached page hears no storage event), then the
// page is shown again with `persisted` set.
test("a page shown again from the back/forward cache after someone else signed in on this browser reloads rather than show the first person's things", async ({ page, chat }) => {
  const auth = new AuthPage(page);
  await auth.signUp("Fay", "fay@example.com", PASSWORD_A);
  await chat.expectComposerText("");
  await page.evaluate(() => {
    (window as { stillThisPage?: boolean }).stillThisPage = true;
    localStorage.setItem("threadline-owner", "someone-who-signed-in-meanwhile");
  });
  // The page reloads inside the handler, taking this evaluation's context with it.
  await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }))).catch(() => undefined);
  const stillThisPage = () => page.evaluate(() => (window as { stillThisPage?: boolean }).stillThisPage ?? false).catch(() => "navigating");
  await expect.poll(stillThisPage).toBe(false);
  // Reloaded: the server still knows Fay, so the page claims the browser's storage for her again.
  await expect(page.getByTestId("account-email").first()).toHaveText("fay@example.com");
  await expect.poll(() => page.evaluate(() => localStorage.getItem("threadline-owner"))).not.toBe("someone-who-signed-in-meanwhile");

  // A page shown again while nobody else signed in stays as it is.
  await page.evaluate(() => {
    (window as { stillThisPage?: boolean }).stillThisPage = true;
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
  });
  await page.waitForTimeout(500);
  expect(await stillThisPage()).toBe(true);
  await new AccountMenu(page).signOut();
});

test("a key made on the settings page works with the SDK from Node, and stops working when revoked", async ({ page }) => {
  const auth = new AuthPage(page);
  await auth.signIn("ana@example.com", PASSWORD_A);
  await new AccountMenu(page).openApiKeys();
  const keys = new ApiKeysPage(page);
  const key = await keys.create("node script");
  expect(await axeLightAndDark(page, "api keys")).toEqual([]);

  const sdk = new Client({ apiUrl: `${BASE}/api/langgraph`, apiKey: key, callerOptions: { maxRetries: 0 } });
  const mine = await sdk.threads.search({ limit: 10 });
  expect(mine.map((t) => t.thread_id)).toEqual([threadOfA]);
  const made = await sdk.threads.create({ metadata: { via: "sdk" } });
  expect(made.metadata).toMatchObject({ via: "sdk" });

  // The key is shown once: a reload lists it by its last characters only.
  await page.reload();
  await expect(keys.rows.filter({ hasText: "node script" })).toHaveCount(1);
  await expect(page.getByTestId("new-key-value")).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  await keys.revoke("node script");
  await expect(sdk.threads.search({ limit: 10 })).rejects.toMatchObject({ status: 401 });
});

test("the sign-in page has no serious or critical axe violations, light and dark", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page.getByTestId("sign-in-page")).toBeVisible();
  const found = await axeLightAndDark(page, "sign-in");
  // The error state too (its colours are the ones most likely to fail contrast).
  await page.getByTestId("auth-email").fill("nobody@example.com");
  await page.getByTestId("auth-password").fill("wrong-password");
  await page.getByTestId("auth-submit").click();
  await expect(page.getByTestId("auth-error")).toBeVisible();
  found.push(...(await axeLightAndDark(page, "sign-in error")));
  expect(found).toEqual([]);
});

test("a forged session cookie gets past the proxy's presence check, not past the pages", async ({ page, context }) => {
  await context.addCookies([{ name: "better-auth.session_token", value: "forged.token", url: BASE }]);
  for (const path of ["/", `/c/${threadOfA}`, "/settings/keys"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByTestId("sidebar")).toHaveCount(0);
  }
  expect(await (await page.request.get(`/c/${threadOfA}`)).text()).not.toContain("Porto");
});

/** A raw sign-in or sign-up as a script would send it, with the client headers given. */
async function authPost(base: string, route: "sign-in" | "sign-up", body: Record<string, string>, headers: Record<string, string>) {
  return fetch(`${base}/api/auth/${route}/email`, { method: "POST", headers: { "Content-Type": "application/json", Origin: base, ...headers }, body: JSON.stringify(body) });
}
let ipCounter = 0;
/** A different made-up client address per call: what a script rotating X-Forwarded-For sends. */
const nextIp = () => `198.51.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

test(`rotating X-Forwarded-For does not reset the sign-in limit: ${FAILED_SIGN_IN_LIMIT.max} bad passwords for one account, then 429, even for the right one`, async () => {
  const email = "cara@example.com";
  expect((await authPost(BASE, "sign-up", { name: "Cara", email, password: PASSWORD_A }, { "X-Forwarded-For": nextIp() })).status).toBe(200);
  const statuses: number[] = [];
  for (let i = 0; i < FAILED_SIGN_IN_LIMIT.max; i++) {
    statuses.push((await authPost(BASE, "sign-in", { email, password: "a-wrong-guess-" + i }, { "X-Forwarded-For": nextIp() })).status);
  }
  // Each from a "new" IP: better-auth's per-IP limit (5 a minute) never bit, the per-account count did.
  expect(statuses).toEqual(Array(FAILED_SIGN_IN_LIMIT.max).fill(401));
  const limited = await authPost(BASE, "sign-in", { email, password: "another-guess" }, { "X-Forwarded-For": nextIp() });
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await limited.json()).toEqual({ detail: expect.stringContaining("Too many failed sign-ins") });
  const right = await authPost(BASE, "sign-in", { email: "Cara@Example.com", password: PASSWORD_A }, { "X-Forwarded-For": nextIp() });
  expect(right.status).toBe(429);
  expect(right.headers.getSetCookie()).toEqual([]);
});

test("THREADLINE_TRUSTED_PROXY_HEADER: the per-IP limit keys on the proxy's header, not on X-Forwarded-For", async () => {
  const port = PORT + 1;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-accounts-proxy-e2e-"));
  const proxied = await startAccountsServer(port, dir, { THREADLINE_TRUSTED_PROXY_HEADER: "x-real-ip" });
  try {
    const base = `http://127.0.0.1:${port}`;
    const statuses: number[] = [];
    // One client behind the proxy (one X-Real-IP), rotating X-Forwarded-For and the email tried.
    for (let i = 0; i <= SIGN_IN_LIMIT.max; i++) {
      statuses.push((await authPost(base, "sign-in", { email: `nobody${i}@example.com`, password: "whatever-password" }, { "X-Real-IP": "203.0.113.9", "X-Forwarded-For": nextIp() })).status);
    }
    expect(statuses).toEqual([...Array(SIGN_IN_LIMIT.max).fill(401), 429]);
    // Another client of the proxy still gets through.
    expect((await authPost(base, "sign-in", { email: "nobody@example.com", password: "whatever-password" }, { "X-Real-IP": "203.0.113.10" })).status).toBe(401);
  } finally {
    proxied.stop();
    await proxied.exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
