import { expect, test } from "./support";

test("drafts are kept per conversation and for the new-conversation page, across switching and reload, until sent", async ({ page, chat, sidebar }) => {
  const a = await chat.startConversation("First conversation for drafts");
  await chat.waitForAnswerToFinish();
  const b = await chat.startConversation("Second conversation for drafts");
  await chat.waitForAnswerToFinish();

  await chat.input.fill("half-written for B");
  await sidebar.row(a).getByTestId("thread-link").click();
  await expect(page).toHaveURL(new RegExp(`/c/${a}$`));
  await expect(chat.input).toHaveValue("");
  await chat.input.fill("half-written for A");

  await page.getByTestId("new-chat").first().click();
  await expect(page).toHaveURL(/\/$/);
  await expect(chat.input).toHaveValue("");
  await chat.input.fill("an idea for a new chat");

  await page.reload();
  await expect(chat.input).toHaveValue("an idea for a new chat");
  await sidebar.row(b).getByTestId("thread-link").click();
  await expect(chat.input).toHaveValue("half-written for B");
  await chat.open(a);
  await expect(chat.input).toHaveValue("half-written for A");

  await chat.input.press("Enter");
  await expect(chat.userMessages.last()).toHaveText("half-written for A");
  await expect(chat.input).toHaveValue("");
  await chat.waitForAnswerToFinish();
  await page.reload();
  await expect(chat.userMessages.last()).toHaveText("half-written for A");
  await expect(chat.input).toHaveValue("");
  await chat.open(b);
  await expect(chat.input).toHaveValue("half-written for B");
});
