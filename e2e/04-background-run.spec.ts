import { expect, fallbackTitle, test } from "./support";

test("a run left streaming in conversation A still titles A's row while B is open", async ({ page, chat, sidebar }) => {
  const textA = "Draft a polite email asking my landlord to fix the heating before the weekend";
  const idA = await chat.startConversation(textA);
  await expect(sidebar.row(idA)).toBeVisible();
  expect(await chat.isStreaming()).toBe(true);

  // Leave A mid-answer: the sidebar joins A's run stream instead of polling the list.
  const joined = page.waitForRequest((r) => r.method() === "GET" && new RegExp(`/threads/${idA}/runs/[^/]+/stream`).test(r.url()));
  await page.getByTestId("new-chat").click();
  await expect(page).toHaveURL(/\/$/);
  await joined;

  const textB = "Suggest three names for a grey cat";
  await chat.send(textB);
  const idB = await chat.threadId();
  expect(idB).not.toBe(idA);

  // A's server title lands (no longer the browser's provisional one) and A's run ends, no reload.
  await expect(sidebar.rowTitle(idA)).toHaveText(fallbackTitle(textA));
  await expect(sidebar.row(idA)).not.toHaveAttribute("data-pending", "true", { timeout: 30_000 });
  await expect(sidebar.rowTitle(idB)).toHaveText(fallbackTitle(textB));

  // Going back to A shows its full answer.
  await sidebar.row(idA).getByTestId("thread-link").click();
  await expect(page).toHaveURL(new RegExp(`/c/${idA}$`));
  await chat.waitForAnswerToFinish();
  await expect(chat.assistantMessages.last()).toContainText("offline");
});
