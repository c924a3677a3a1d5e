import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { Client } from "@langchain/langgraph-sdk";
import { AccountMenu, ApiKeysPage, AuthPage } from "../pages/AccountPages";
import { expect, fallbackTitle, test } from "../support";
import { spawnServer, type SpawnedServer } from "../spawned-server";

/**
 * THREADLINE_AUTH=accounts in front of a LangGraph server, as a person meets it: `langgraph dev`
 * serving langgraph.json with accounts and the forward secret, and the built app (`next start`)
 * with LANGGRAPH_API_URL, the same mode and secret, each with its own fresh folders. People sign
 * up on the real pages; the Next server names them to langgraph dev with the signed token only.
 * Runs under playwright.langgraph.config.ts (e2e/langgraph/); it starts its own two servers.
 */
const PORT = Number(process.env.E2E_PORT ?? 3217) + 72;
const LG_PORT = Number(process.env.E2E_PORT ?? 3217) + 73;
const BASE = `http://127.0.0.1:${PORT}`;
const SECRET = "e2e-forward-secret-0123456789abcdefghij";
const PASSWORD_A = "ana-secret-passphrase-1";
const PASSWORD_B = "ben-secret-passphrase-2";

type Server = SpawnedServer;
const servers: Server[] = [];
let root = "";

test.describe.configure({ mode: "serial", timeout: 120_000 });
test.use({ baseURL: BASE });

function start(cmd: string, args: string[], env: Record<string, string>): Server {
  const server = spawnServer(cmd, args, env);
  servers.push(server);
  return server;
}

const statusOf = async (url: string) => (await fetch(url).catch(() => null))?.status ?? 0;

test.beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-lg-accounts-e2e-"));
  const accounts = { THREADLINE_AUTH: "accounts", THREADLINE_FORWARD_SECRET: SECRET, THREADLINE_CORS_ORIGINS: "", THREADLINE_TRUSTED_PROXY_HEADER: "" };
  // langgraph dev from a scratch project folder, so its storage (.langgraph_api) is fresh too.
  start(process.execPath, ["e2e/langgraph/langgraph-dev.mjs", String(LG_PORT)], { ...accounts, LG_E2E_DIR: path.join(root, "langgraph"), DATA_DIR: path.join(root, "langgraph-data") });
  await expect.poll(() => statusOf(`http://127.0.0.1:${LG_PORT}/info`), { timeout: 110_000 }).toBe(200);
  start("node_modules/.bin/next", ["start", "-H", "127.0.0.1", "-p", String(PORT)], { ...accounts, DATA_DIR: path.join(root, "web"), LANGGRAPH_API_URL: `http://127.0.0.1:${LG_PORT}`, DATABASE_URL: "" });
  await expect.poll(() => statusOf(`${BASE}/sign-in`), { timeout: 60_000 }).toBe(200);
});

test.afterAll(async () => {
  for (const s of servers) s.stop();
  await Promise.all(servers.map((s) => s.exited));
  const logs = servers.map((s) => s.output()).join("\n");
  // Passwords were typed into the pages; neither server wrote one down.
  expect(logs).not.toContain(PASSWORD_A);
  expect(logs).not.toContain(PASSWORD_B);
  fs.rmSync(root, { recursive: true, force: true });
});

let threadOfA = "";

test("A chats and pins a title; B sees nothing of A's, not even by the URL; signed out, pages lead to sign-in", async ({ page, chat, sidebar }) => {
  const auth = new AuthPage(page);
  const menu = new AccountMenu(page);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);

  await auth.signUp("Ana", "ana@example.com", PASSWORD_A);
  const text = "Plan a weekend in Porto with good food";
  await chat.send(text);
  threadOfA = await chat.threadId();
  await expect(sidebar.rowTitle(threadOfA)).toHaveText(fallbackTitle(text));
  await chat.waitForAnswerToFinish();
  await sidebar.rename(threadOfA, "Porto with Ana");
  await expect(sidebar.rowLock(threadOfA)).toBeVisible();
  await page.reload();
  await expect(sidebar.rowTitle(threadOfA)).toHaveText("Porto with Ana");
  await menu.signOut();

  await page.goto(`/c/${threadOfA}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);

  await auth.signUp("Ben", "ben@example.com", PASSWORD_B);
  await expect(sidebar.rows).toHaveCount(0);
  await page.goto(`/c/${threadOfA}`);
  await expect(page.getByTestId("conversation-not-found")).toBeVisible();
  await expect(page.getByText("Porto")).toHaveCount(0);
  expect(await (await page.request.get(`/c/${threadOfA}`)).text()).not.toContain("Porto");
  // B's rename of A's thread, as the page's own client would send it.
  const rename = await page.request.post(`/api/langgraph/threads/${threadOfA}/state`, { data: { values: { title: "Mine now" } }, headers: { Origin: BASE } });
  expect(rename.status()).toBe(404);
  await menu.signOut();

  // Signed out: the API refuses before anything reaches the LangGraph server.
  expect((await fetch(`${BASE}/api/langgraph/threads/search`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(401);

  await auth.signIn("ana@example.com", PASSWORD_A);
  await expect(sidebar.rowTitle(threadOfA)).toHaveText("Porto with Ana");
});

test("a key made on the settings page works with the SDK from Node as A, and is 401 once revoked", async ({ page }) => {
  await new AuthPage(page).signIn("ana@example.com", PASSWORD_A);
  await new AccountMenu(page).openApiKeys();
  const keys = new ApiKeysPage(page);
  const key = await keys.create("node script");

  const sdk = new Client({ apiUrl: `${BASE}/api/langgraph`, apiKey: key, callerOptions: { maxRetries: 0 } });
  const mine = await sdk.threads.search({ limit: 10 });
  expect(mine.map((t) => t.thread_id)).toEqual([threadOfA]);
  expect((await sdk.threads.getState<{ title: string }>(threadOfA)).values.title).toBe("Porto with Ana");
  // The LangGraph server does not know the key: the Next server checked it and sent the token.
  expect((await fetch(`http://127.0.0.1:${LG_PORT}/threads/search`, { method: "POST", headers: { "Content-Type": "application/json", "x-api-key": key }, body: "{}" })).status).toBe(401);

  await keys.revoke("node script");
  await expect(sdk.threads.search({ limit: 10 })).rejects.toMatchObject({ status: 401 });
});

test("the web server holds the accounts and no checkpoints: the conversations live on the LangGraph server", () => {
  const db = new Database(path.join(root, "web", "threadline.sqlite"), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    expect(tables).toEqual(expect.arrayContaining(["user", "session", "tl_api_keys"]));
    // SqliteSaver's tables, made only when the embedded API's checkpointer is opened.
    expect(tables).not.toContain("checkpoints");
    expect(tables).not.toContain("writes");
    expect(db.prepare(`SELECT count(*) FROM "user"`).pluck().get()).toBe(2);
  } finally {
    db.close();
  }
});
