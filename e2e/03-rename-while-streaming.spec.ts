import { expect, test } from "./support";

test("a rename made while the first answer streams wins, after the run and after reload", async ({ page, chat, sidebar }) => {
  const id = await chat.startConversation("Explain how a heat pump works in winter, step by step, for a homeowner");
  await expect(sidebar.row(id)).toBeVisible();
  expect(await chat.isStreaming()).toBe(true);

  await sidebar.rename(id, "Heat pumps", "f2");
  expect(await chat.isStreaming(), "renamed while the answer was still streaming").toBe(true);
  await expect(sidebar.rowTitle(id)).toHaveText("Heat pumps");

  await chat.waitForAnswerToFinish();
  await expect(sidebar.rowTitle(id)).toHaveText("Heat pumps");
  await expect(sidebar.rowLock(id)).toBeVisible();
  await chat.expectTitle("Heat pumps");

  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText("Heat pumps");
  await expect(sidebar.rowLock(id)).toBeVisible();
  await chat.expectTitle("Heat pumps");
});
