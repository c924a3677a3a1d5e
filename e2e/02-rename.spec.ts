import { expect, fallbackTitle, test } from "./support";

test("an inline rename pins the title everywhere and survives reloads and new messages", async ({ page, chat, sidebar }) => {
  const id = await chat.startConversation("What is the difference between a list and a tuple in Python?");
  await chat.waitForAnswerToFinish();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle("What is the difference between a list and a tuple in Python?"));

  await sidebar.rename(id, "  Python   sequences  ");
  // Settles to the server's normalised title; pinned (lock) in the row and the header.
  await expect(sidebar.rowTitle(id)).toHaveText("Python sequences");
  await expect(sidebar.rowLock(id)).toBeVisible();
  await expect(chat.headerLock).toBeVisible();
  await chat.expectTitle("Python sequences");

  // Provenance tooltip.
  await sidebar.rowTitle(id).hover();
  await expect(page.getByTestId("tooltip").first()).toContainText("Named by you");

  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText("Python sequences");
  await expect(sidebar.rowLock(id)).toBeVisible();
  await chat.expectTitle("Python sequences");
  // Server-rendered: the HTML already carries the title (no "New Conversation" flash).
  const html = await (await page.request.get(`/c/${id}`)).text();
  expect(html).toContain("<title>Python sequences · Threadline</title>");
  expect(html).toMatch(/data-testid="chat-title"[^>]*><bdi>Python sequences<\/bdi>/);

  await chat.send("And which one is faster?");
  await chat.waitForAnswerToFinish();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(sidebar.rowTitle(id)).toHaveText("Python sequences");
  await chat.expectTitle("Python sequences");

  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText("Python sequences");
  await chat.expectTitle("Python sequences");
});
