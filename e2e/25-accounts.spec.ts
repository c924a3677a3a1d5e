import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { Client } from "@langchain/langgraph-sdk";
import { AccountMenu, ApiKeysPage, AuthPage } from "./pages/AccountPages";
import { expect, test } from "./support";

/**
 * THREADLINE_AUTH=accounts on the built app: its own `next start` with a fresh DATA_DIR, people
 * signing up and in through the real pages (better-auth), and the isolation a person sees.
 */
const PORT = Number(process.env.E2E_PORT ?? 3217) + 52;
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD_A = "ana-secret-passphrase-1";
const PASSWORD_B = "ben-secret-passphrase-2";

let server: { stop: () => void; exited: Promise<unknown>; output: () => string } | null = null;
let dataDir = "";

// Serial on one server. better-auth allows 5 sign-ins per IP per minute: these tests make 4.
test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  // Fresh per start (a retried group starts again with nobody signed up).
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-accounts-e2e-"));
  const child = spawn("node_modules/.bin/next", ["start", "-H", "127.0.0.1", "-p", String(PORT)], {
    env: {
      ...process.env,
      THREADLINE_AUTH: "accounts",
      DATA_DIR: dataDir,
      OFFLINE_MODEL_DELAY_MS: "5",
      NEXT_TELEMETRY_DISABLED: "1",
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      THREADLINE_CORS_ORIGINS: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  server = { exited, output: () => output, stop: () => child.exitCode == null && child.pid && process.kill(-child.pid, "SIGTERM") };
  await expect.poll(async () => (await fetch(`${BASE}/api/langgraph/info`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
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
  await menu.signOut();

  // Signed out: A's conversation URL leads to sign-in, not to the conversation.
  await page.goto(`/c/${threadOfA}`);
  await expect(page).toHaveURL(new RegExp(`/sign-in\\?next=${encodeURIComponent(`/c/${threadOfA}`)}$`));

  await auth.signUp("Ben", "ben@example.com", PASSWORD_B);
  await expect(menu.email).toHaveText("ben@example.com");
  await expect(sidebar.rows).toHaveCount(0);
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
