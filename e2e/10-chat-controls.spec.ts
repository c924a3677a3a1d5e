import type { Page } from "@playwright/test";
import { apiClient, expect, fallbackTitle, test } from "./support";

/** The DELETE requests the page sends from now on (URLs, in order). */
function deleteRequests(page: Page): string[] {
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "DELETE") sent.push(r.url());
  });
  return sent;
}

test("Shift+Enter breaks a line, Enter sends, Stop cancels the run", async ({ page, chat }) => {
  await chat.openNew();
  await chat.input.fill("first line");
  await chat.input.press("Shift+Enter");
  await chat.input.pressSequentially("second line");
  await expect(chat.input).toHaveValue("first line\nsecond line");
  await chat.input.press("Enter");
  const id = await chat.threadId();
  await expect(chat.userMessages.first()).toHaveText("first line\nsecond line");

  await expect(chat.stopButton).toBeVisible();
  await chat.stopButton.click();
  await expect(chat.stopButton).toBeHidden();
  await expect(chat.sendButton).toBeVisible();
  const [run] = await apiClient().runs.list(id);
  await expect.poll(async () => (await apiClient().runs.get(id, run.run_id)).status).not.toBe("running");
  expect(["interrupted", "error", "timeout"]).toContain((await apiClient().runs.get(id, run.run_id)).status);
  await expect(page.getByTestId("chat-error")).toHaveCount(0);
});

test("a failed run shows inline with a retry that works", async ({ page, chat }) => {
  const id = await chat.startConversation("Tell me a fun fact about octopuses");
  await chat.waitForAnswerToFinish();

  await page.route("**/runs/stream", (route) =>
    route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ detail: "Thread is busy, try again" }) }),
  );
  await chat.send("And another one?");
  await expect(page.getByTestId("chat-error")).toContainText("busy with another answer");
  await page.unroute("**/runs/stream");
  await page.getByTestId("retry-button").click();
  await chat.waitForAnswers(2);
  await expect(page.getByTestId("chat-error")).toHaveCount(0);
  expect(new URL(page.url()).pathname).toBe(`/c/${id}`);
});

test("reloading mid-answer rejoins the run; the list is patched, never refetched", async ({ page, chat, sidebar }) => {
  const text = "List five tips for better sleep and explain each one briefly";
  const id = await chat.startConversation(text);
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  expect(await chat.isStreaming()).toBe(true);

  await page.reload();
  const listRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/threads/search")) listRequests.push(r.url());
  });
  await expect(chat.stopButton).toBeVisible();
  await chat.waitForAnswerToFinish();
  await expect(chat.assistantMessages.last()).toContainText("offline model");
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));

  await sidebar.rename(id, "Sleep tips");
  // The page loaded the thread busy; this tab saw the run end, so naming it again is offered.
  await sidebar.openMenu(id);
  await expect(page.getByTestId("menu-regenerate")).toBeVisible();
  await expect(page.getByTestId("menu-regenerate")).not.toHaveAttribute("aria-disabled", "true");
  await page.keyboard.press("Escape");
  await chat.send("Thanks!");
  await chat.waitForAnswerToFinish();
  await expect(sidebar.rowTitle(id)).toHaveText("Sleep tips");
  expect(listRequests, "no list refetch after load").toEqual([]);
});

test("delete hides the row at once and Undo brings it back, open again (nothing was deleted)", async ({ page, chat, sidebar }) => {
  const text = "What should I pack for a rainy hiking weekend?";
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  const deletes = deleteRequests(page);

  await sidebar.menuItem(id, "menu-delete");
  await expect(sidebar.row(id)).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  // Deleting the open conversation had left it; Undo opens it again.
  await expect(page).toHaveURL(new RegExp(`/c/${id}$`));
  await expect(chat.title).toHaveText(fallbackTitle(text));
  await expect(chat.userMessages).toHaveText([text]);
  await page.waitForTimeout(6_000); // past the undo window
  expect(deletes).toEqual([]);
  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));

  // Gone somewhere else before the Undo: it brings the row back and leaves the page where it is.
  const other = await chat.startConversation("Which knots should every sailor know?");
  await chat.waitForAnswerToFinish();
  await sidebar.row(id).getByTestId("thread-link").click();
  await expect(page).toHaveURL(new RegExp(`/c/${id}$`));
  await sidebar.menuItem(id, "menu-delete");
  await expect(page).toHaveURL(/\/$/);
  await sidebar.row(other).getByTestId("thread-link").click();
  await expect(page).toHaveURL(new RegExp(`/c/${other}$`));
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  // No navigation comes: the page stays where the user went, checked for 2 s.
  for (let i = 0; i < 10; i++) {
    await page.waitForTimeout(200);
    expect(page.url()).toMatch(new RegExp(`/c/${other}$`));
  }
  expect(deletes).toEqual([]);
});

test("going Back to a conversation whose delete waits for its Undo calls the delete off: the row is back and a send works", async ({ page, chat, sidebar }) => {
  const text = "How long do sourdough starters keep in the fridge?";
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  const deletes = deleteRequests(page);

  await sidebar.menuItem(id, "menu-delete");
  await expect(sidebar.row(id)).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/c/${id}$`));
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Deleted" })).toHaveCount(0);
  await chat.send("And in the freezer?");
  await chat.waitForAnswers(2);
  await expect(chat.error).toHaveCount(0);
  await page.waitForTimeout(5_500); // past the undo window
  expect(deletes).toEqual([]);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(2);
});

test("a delete followed by a reload, or by Back across a page load, within its Undo window stays a delete", async ({ page, chat, sidebar }) => {
  const gone = await chat.startConversation("Which ferns grow in deep shade?");
  await chat.waitForAnswerToFinish();
  const kept = await chat.startConversation("How often should moss be watered?");
  await chat.waitForAnswerToFinish();
  // The DELETE the page sends as it goes lands late, after the next page was made with the row.
  await page.route("**/threads/*", async (route) => {
    if (route.request().method() === "DELETE") await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });

  await chat.open(kept);
  await sidebar.menuItem(gone, "menu-delete");
  await expect(sidebar.row(gone)).toHaveCount(0);
  await page.reload();
  await expect(sidebar.row(kept)).toBeVisible();
  await expect(sidebar.row(gone)).toHaveCount(0);
  await expect.poll(async () => (await apiClient().threads.get(gone).then(() => "there", () => "gone")), { timeout: 10_000 }).toBe("gone");

  // Back across a page load to a conversation deleted as the page was left: it says so.
  const other = await chat.startConversation("Can ferns live indoors?");
  await chat.waitForAnswerToFinish();
  await chat.open(other);
  await chat.open(kept);
  await sidebar.menuItem(other, "menu-delete");
  await expect(sidebar.row(other)).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/c/${other}$`));
  await expect(chat.deletedNotice).toContainText("This conversation was deleted.");
  await expect(sidebar.row(other)).toHaveCount(0);
});

test("a row menu opened as the home page loads stays open: the new chat's box, mounting after it, leaves the focus in the menu", async ({ page, sidebar }) => {
  const { thread_id: id } = await apiClient().threads.create();
  await apiClient().threads.updateState(id, { values: { title: "Menu opened early" } });
  // The menu is portalled out of the list; focus in it must still count as focus in the list,
  // which is what the composer checks before it takes the focus on mounting.
  await page.goto(`/c/${id}`);
  await sidebar.openMenu(id);
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest("[data-conversation-list]")))).toBe(true);
  await page.keyboard.press("Escape");
  // The race itself: on a slowed CPU the list hydrates first and a press on "…" can open the menu
  // before the composer mounts (it took the focus and closed the menu in 6 of 28 such visits).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  for (let visit = 0; visit < 3; visit++) {
    await page.goto("/");
    await sidebar.row(id).getByTestId("row-menu-button").click();
    await expect(page.getByTestId("row-menu")).toBeVisible();
    await expect(page.getByTestId("composer-input")).toBeVisible();
    await page.waitForTimeout(300);
    await expect(page.getByTestId("row-menu"), `visit ${visit + 1}: the menu is still open`).toBeVisible();
    await page.keyboard.press("Escape");
  }
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
});

test("the delete toast quotes a long title cut at 60 characters, as the rename toast does", async ({ page, sidebar }) => {
  const title = `${"Long winding notes on a river trip ".repeat(5)}end`.slice(0, 190);
  const { thread_id: id } = await apiClient().threads.create();
  await apiClient().threads.updateState(id, { values: { title } });
  await page.goto("/");
  await expect(sidebar.row(id)).toBeVisible();
  await sidebar.menuItem(id, "menu-delete");
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Deleted" });
  await expect(toast).toContainText(`Deleted “${title.slice(0, 57).trimEnd()}…”`);
  await toast.getByRole("button", { name: "Undo" }).click();
  await expect(sidebar.row(id)).toBeVisible();
});
