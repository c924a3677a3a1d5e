import { expect, fallbackTitle, test } from "./support";

test("the first message titles the conversation before the answer finishes", async ({ page, chat, sidebar }) => {
  const text = "Plan a three day trip to Lisbon for two people with a small budget, good food and some museums";
  const expected = fallbackTitle(text);

  await chat.openNew();
  // Embedded, the server knows it runs the offline model; in front of a LangGraph server
  // (playwright.langgraph.config.ts) only that server's answers tell.
  const onLangGraphServer = (await page.locator("html").getAttribute("data-api")) === "standard";
  if (onLangGraphServer) await expect(chat.offlineBanner).toHaveCount(0);
  else await expect(chat.offlineBanner).toContainText("OPENAI_API_KEY");
  await chat.send(text);
  const id = await chat.threadId();

  await expect(sidebar.rowTitle(id)).toHaveText(expected);
  expect(await chat.isStreaming(), "the answer is still streaming when the title shows").toBe(true);
  await expect(chat.title).toHaveText(expected);
  await expect(page.getByTestId("title-announcer")).toContainText(expected);

  // Tokens stream in: the answer grows while the Stop button is up.
  const first = (await chat.assistantMessages.last().textContent()) ?? "";
  await expect.poll(async () => ((await chat.assistantMessages.last().textContent()) ?? "").length).toBeGreaterThan(first.length);

  await chat.waitForAnswerToFinish();
  await expect(chat.offlineBanner).toContainText(onLangGraphServer ? "CHAT_MODEL on the LangGraph server" : "CHAT_MODEL, then restart the server");
  await expect(sidebar.rowTitle(id)).toHaveText(expected);
  await expect(sidebar.row(id)).not.toHaveAttribute("data-pending", "true");
  await chat.expectTitle(expected);
});
