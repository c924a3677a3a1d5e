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

test("a rename made while an answer streams stays through a follow-up sent the moment that answer ends", async ({ page, chat, sidebar }) => {
  const id = await chat.startConversation("Describe how to repot a large monstera without hurting its roots");
  await expect(sidebar.row(id)).toBeVisible();
  await sidebar.rename(id, "Repotting", "f2");
  expect(await chat.isStreaming(), "renamed while the answer was still streaming").toBe(true);
  await chat.waitForAnswerToFinish();
  // In front of a LangGraph server the rename is still waiting to be written at this moment: the
  // follow-up's run may start first, and its values carry the title from before the rename.
  // Every title the row and the header show from the send on: read after each DOM change, so a
  // flash of the old title however short is caught.
  await page.evaluate((threadId) => {
    const seen = new Set<string>();
    const read = () => {
      const row = document.querySelector(`[data-testid="thread-row"][data-thread-id="${threadId}"] [data-testid="thread-title"]`);
      seen.add(`row:${row?.textContent ?? "(none)"}`);
      seen.add(`header:${document.querySelector('[data-testid="chat-title"]')?.textContent ?? "(none)"}`);
    };
    read();
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    (window as unknown as { titlesSeen: Set<string> }).titlesSeen = seen;
  }, id);
  await chat.send("And which soil mix should I use?");
  await expect(chat.stopButton).toBeVisible();
  await chat.waitForAnswerToFinish();
  const seen = await page.evaluate(() => [...(window as unknown as { titlesSeen: Set<string> }).titlesSeen]);
  expect(seen).toEqual(["row:Repotting", "header:Repotting"]);
  await expect(sidebar.rowLock(id)).toBeVisible();

  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText("Repotting");
  await expect(sidebar.rowLock(id)).toBeVisible();
  await chat.expectTitle("Repotting");
});
