import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { Sidebar } from "./pages/Sidebar";
import { ChatPage } from "./pages/ChatPage";
import { expect, fallbackTitle, test } from "./support";
import { startLoopbackLLM, type LoopbackLLM } from "../lib/agent/testing/loopback-llm";

// The built app with TITLE_MODEL set, against a scripted Anthropic-compatible title server on
// loopback (the chat model stays the offline one). Its own server, so other specs keep fallback titles.
const PORT = Number(process.env.E2E_PORT ?? 3217) + 60;
const BASE = `http://127.0.0.1:${PORT}`;
let llm: LoopbackLLM;
let server: ChildProcess;

test.beforeAll(async () => {
  llm = await startLoopbackLLM();
  llm.script("e2e-title", { text: '"Lisbon Food Weekend"', delayMs: 1500 });
  server = spawn("node_modules/.bin/next", ["start", "-p", String(PORT), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      DATA_DIR: path.join(os.tmpdir(), `threadline-e2e-model-${process.pid}-${Date.now()}`),
      OPENAI_API_KEY: "",
      OPENAI_BASE_URL: "",
      ANTHROPIC_API_KEY: "sk-ant-loopback",
      ANTHROPIC_BASE_URL: llm.anthropicBaseURL,
      TITLE_MODEL: "anthropic:e2e-title",
      OFFLINE_MODEL_DELAY_MS: "20",
    },
    stdio: "ignore",
  });
  await expect.poll(async () => (await fetch(`${BASE}/api/langgraph/info`).catch(() => null))?.status ?? 0, { timeout: 30_000 }).toBe(200);
});

test.afterAll(async () => {
  server?.kill("SIGTERM");
  await llm?.close();
});

test("the sidebar shows the fallback at once, then the model's title, naming the model", async ({ page }) => {
  const chat = new ChatPage(page);
  const sidebar = new Sidebar(page);
  const text = "What should we eat on a weekend in Lisbon? We love seafood and pastries";
  await page.goto(BASE);
  await expect(chat.input).toBeVisible();
  await chat.send(text);
  const id = await chat.threadId();

  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(sidebar.rowTitle(id)).toHaveText("Lisbon Food Weekend", { timeout: 15_000 });
  await expect(chat.title).toHaveText("Lisbon Food Weekend");
  await expect(sidebar.row(id)).toContainText("anthropic:e2e-title");
  await sidebar.rowTitle(id).hover();
  await expect(page.getByRole("tooltip")).toContainText("anthropic:e2e-title");
  expect(llm.requests.filter((r) => r.model === "e2e-title")).toHaveLength(1);

  // Still there after a reload: it was written to the checkpoint and the registry.
  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText("Lisbon Food Weekend");

  // Pinned by a rename, the row offers to let the AI name it again: a title model is set.
  await sidebar.rename(id, "Our Lisbon list");
  await sidebar.openMenu(id);
  await expect(page.getByTestId("menu-regenerate")).toHaveText("Let AI name this");
  await page.keyboard.press("Escape");

  // The title model fails: the pin stays, and the toast says the AI gave nothing usable.
  await chat.waitForAnswerToFinish();
  llm.script("e2e-title", { status: 500 });
  try {
    await sidebar.menuItem(id, "menu-regenerate");
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "The AI gave no usable title" })).toBeVisible();
    await expect(sidebar.rowTitle(id)).toHaveText("Our Lisbon list");
    await expect(sidebar.rowLock(id)).toBeVisible();
    const state = await (await fetch(`${BASE}/api/langgraph/threads/${id}/state`)).json();
    expect(state.values).toMatchObject({ title: "Our Lisbon list", title_source: { kind: "user" } });
  } finally {
    llm.script("e2e-title", { text: '"Lisbon Food Weekend"', delayMs: 1500 });
  }
});

test("the model's title arriving while the title editor is open is not pinned over by leaving the field unchanged", async ({ page }) => {
  const chat = new ChatPage(page);
  const sidebar = new Sidebar(page);
  const text = "Where do we find the best custard tarts in Lisbon near the river?";
  await page.goto(BASE);
  await expect(chat.input).toBeVisible();
  await chat.send(text);
  const id = await chat.threadId();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await sidebar.startEditing(id);
  await expect(sidebar.editor).toHaveValue(fallbackTitle(text));
  // The model's title (1.5 s) arrives while the field is open, unchanged.
  await expect(chat.title).toHaveText("Lisbon Food Weekend", { timeout: 15_000 });
  await sidebar.editor.press("Enter");
  await expect(sidebar.editor).toBeHidden();
  await expect(sidebar.rowTitle(id)).toHaveText("Lisbon Food Weekend");
  await expect(sidebar.rowLock(id)).toHaveCount(0);
  await chat.waitForAnswerToFinish();
  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText("Lisbon Food Weekend");
  await expect(sidebar.rowLock(id)).toHaveCount(0);
});

test("title history names the model, and a rename's Undo brings the model's title back with its model", async ({ page }) => {
  const chat = new ChatPage(page);
  const sidebar = new Sidebar(page);
  const text = "Where should we eat seafood in Lisbon with kids";
  await page.goto(BASE);
  await expect(chat.input).toBeVisible();
  await chat.send(text);
  const id = await chat.threadId();
  await expect(sidebar.rowTitle(id)).toHaveText("Lisbon Food Weekend", { timeout: 15_000 });
  await chat.waitForAnswerToFinish();

  await sidebar.rename(id, "Seafood with kids");
  await page.locator("[data-sonner-toast]").getByRole("button", { name: "Undo" }).click();
  await expect(sidebar.rowTitle(id)).toHaveText("Lisbon Food Weekend");
  await expect(sidebar.row(id)).toHaveAttribute("data-title-source", "model");
  const state = await (await fetch(`${BASE}/api/langgraph/threads/${id}/state`)).json();
  expect(state.values.title_source).toEqual({ kind: "model", model: "anthropic:e2e-title" });

  await sidebar.menuItem(id, "menu-title-history");
  const sources = page.getByTestId("title-history").getByTestId("title-revision-source");
  await expect(sources).toHaveText(["Named by AI (anthropic:e2e-title)", "Named by you", "Named by AI (anthropic:e2e-title)", "From your first message"]);
});

test("a reload during a slow 'Let AI name this' shows the AI's title with the next answer, though the page had loaded the pin", async ({ page }) => {
  const chat = new ChatPage(page);
  const sidebar = new Sidebar(page);
  await page.goto(BASE);
  await expect(chat.input).toBeVisible();
  await chat.send("Which pastry shops in Lisbon open early?");
  const id = await chat.threadId();
  await expect(sidebar.rowTitle(id)).toHaveText("Lisbon Food Weekend", { timeout: 15_000 });
  await chat.waitForAnswerToFinish();
  await sidebar.rename(id, "My pin");

  llm.script("e2e-title", { text: '"Early Lisbon Pastries"', delayMs: 3000 });
  try {
    // Reloaded once the server asked the model (3 s to answer): the page loads the pin.
    const asked = llm.requests.filter((r) => r.model === "e2e-title").length;
    await sidebar.menuItem(id, "menu-regenerate");
    await expect.poll(() => llm.requests.filter((r) => r.model === "e2e-title").length).toBe(asked + 1);
    await page.reload();
    await expect(chat.input).toBeVisible();
    await expect(chat.title).toHaveText("My pin");
    // The server finishes the regenerate; this page does not see it.
    const serverTitle = async () => (await (await fetch(`${BASE}/api/langgraph/threads/${id}/state`)).json()).values.title;
    await expect.poll(serverTitle, { timeout: 15_000 }).toBe("Early Lisbon Pastries");
    await expect(chat.title).toHaveText("My pin");

    // The next answer's values name it automatically while the page shows a pin: the page reads
    // the thread's title again, and shows the AI's title, unpinned, everywhere.
    await chat.send("And which one has the best pastel de nata?");
    await chat.waitForAnswerToFinish();
    await expect(chat.title).toHaveText("Early Lisbon Pastries");
    await expect(sidebar.rowTitle(id)).toHaveText("Early Lisbon Pastries");
    await expect(sidebar.rowLock(id)).toHaveCount(0);
  } finally {
    llm.script("e2e-title", { text: '"Lisbon Food Weekend"', delayMs: 1500 });
  }
});

test("a rename from another device during a slow 'Let AI name this' stays, and the page shows it with the toast that says so", async ({ page }) => {
  const chat = new ChatPage(page);
  const sidebar = new Sidebar(page);
  await page.goto(BASE);
  await expect(chat.input).toBeVisible();
  await chat.send("Where can we hear fado in Lisbon?");
  const id = await chat.threadId();
  await expect(sidebar.rowTitle(id)).toHaveText("Lisbon Food Weekend", { timeout: 15_000 });
  await chat.waitForAnswerToFinish();
  await sidebar.rename(id, "My fado pin");

  llm.script("e2e-title", { text: '"Fado Nights"', delayMs: 3000 });
  try {
    const asked = llm.requests.filter((r) => r.model === "e2e-title").length;
    await sidebar.menuItem(id, "menu-regenerate");
    await expect.poll(() => llm.requests.filter((r) => r.model === "e2e-title").length).toBe(asked + 1);
    // Another device renames it while the model thinks (not this browser: no tab hears of it).
    const renamed = await fetch(`${BASE}/api/langgraph/threads/${id}/state`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ values: { title: "Named on my phone" } }),
    });
    expect(renamed.status).toBe(200);
    await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Its title was changed meanwhile, and that title stays." })).toBeVisible({ timeout: 15_000 });
    // The title that stays is the one shown, pinned, here too.
    await expect(sidebar.rowTitle(id)).toHaveText("Named on my phone");
    await expect(chat.title).toHaveText("Named on my phone");
    await expect(sidebar.rowLock(id)).toBeVisible();
  } finally {
    llm.script("e2e-title", { text: '"Lisbon Food Weekend"', delayMs: 1500 });
  }
});
