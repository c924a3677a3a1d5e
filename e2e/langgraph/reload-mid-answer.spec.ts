import { expect, fallbackTitle, test } from "../support";

test("reloading mid-answer in front of a LangGraph server rejoins the run and shows the whole answer", async ({ page, chat, sidebar }) => {
  const text = "List five tips for better sleep and explain each one briefly";
  const id = await chat.startConversation(text);
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await chat.waitForAnswerWords(3);
  expect(await chat.isStreaming()).toBe(true);

  await page.reload();
  await expect(chat.stopButton).toBeVisible();
  await chat.waitForAnswerToFinish();
  await expect(chat.assistantMessages.last()).toContainText("offline model");
  // Read from the page's server render this time: that server's model is known from its answer.
  await page.reload();
  await expect(chat.offlineBanner).toContainText("on the LangGraph server");
});
