import { randomUUID } from "node:crypto";
import { apiClient, expect, test } from "./support";
import { Sidebar } from "./pages/Sidebar";

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("/c/<unknown id> is a 'conversation not found' page with the header and the drawer", async ({ page }) => {
    const known = await apiClient().threads.create();
    await apiClient().threads.updateState(known.thread_id, { values: { title: "Still here" } });

    const res = await page.goto(`/c/${randomUUID()}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("conversation-not-found")).toBeVisible();
    await expect(page.getByTestId("page-title")).toHaveText("Conversation not found");
    await expect(page).toHaveTitle("Conversation not found · Threadline");

    await page.getByTestId("open-drawer").click();
    const drawer = new Sidebar(page, page.getByTestId("drawer"));
    await expect(drawer.row(known.thread_id)).toBeVisible();
    await drawer.row(known.thread_id).getByTestId("thread-link").click();
    await expect(page.getByTestId("chat-title")).toHaveText("Still here");
  });

  test("a thread id the API refuses as malformed is 'not found' too", async ({ page }) => {
    const res = await page.goto("/c/not-a-thread-id");
    expect(res?.status()).toBe(404);
    await expect(page).toHaveTitle("Conversation not found · Threadline");
  });
});

test("any other unknown path is a plain 404 page", async ({ page }) => {
  const res = await page.goto("/settings/nowhere");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toContainText("Page not found");
  await expect(page.getByTestId("conversation-not-found")).toHaveCount(0);
  await expect(page).toHaveTitle("Page not found · Threadline");
});

test("the app has a favicon", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  const icon = await request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\//);
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/^image\//);
});

test("a refused rename shows its message and logs no console error", async ({ page, chat, sidebar }) => {
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  const failed: string[] = [];
  page.on("response", (r) => {
    if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
  });
  const id = await chat.startConversation("Plan a vegetable garden");
  await chat.waitForAnswerToFinish();

  await sidebar.startEditing(id, "menu");
  await sidebar.editor.fill("   ");
  await sidebar.editor.press("Enter");
  await expect(sidebar.editorError).toHaveText("Title must not be empty");
  await sidebar.editor.fill("x".repeat(201));
  await sidebar.editor.press("Enter");
  await expect(sidebar.editorError).toHaveText("Title must be at most 200 characters");
  await sidebar.editor.press("Escape");

  expect(consoleErrors).toEqual([]);
  expect(failed).toEqual([]);
});
