import { apiClient, expect, fallbackTitle, test } from "./support";
import { ChatPage } from "./pages/ChatPage";
import { Sidebar } from "./pages/Sidebar";

test("a rename, a new conversation and a delete in one tab show in the other without reload", async ({ context, chat, sidebar }) => {
  const id = await chat.startConversation("Recommend a good beginner telescope for city skies");
  await chat.waitForAnswerToFinish();

  const other = await context.newPage();
  const otherChat = new ChatPage(other);
  const otherSidebar = new Sidebar(other);
  await otherChat.open(id);
  await expect(otherSidebar.rowTitle(id)).toHaveText(fallbackTitle("Recommend a good beginner telescope for city skies"));

  await sidebar.rename(id, "Telescopes");
  await expect(otherSidebar.rowTitle(id)).toHaveText("Telescopes");
  await expect(otherSidebar.rowLock(id)).toBeVisible();
  await otherChat.expectTitle("Telescopes");

  // A conversation started in the first tab appears in the other with its title.
  const newText = "How long should I steep green tea?";
  const id2 = await chat.startConversation(newText);
  await expect(otherSidebar.rowTitle(id2)).toHaveText(fallbackTitle(newText));
  await chat.waitForAnswerToFinish();

  // Delete (after the undo window) disappears from the other tab, which says so on the deleted
  // page instead of silently jumping to a new chat.
  await sidebar.menuItem(id, "menu-delete");
  await expect(sidebar.row(id)).toBeHidden();
  await expect(otherSidebar.row(id)).toBeHidden({ timeout: 15_000 });
  await expect(otherChat.deletedNotice).toContainText("deleted in another tab");
  await expect(other).toHaveURL(new RegExp(`/c/${id}$`));
  await expect(otherChat.input).toHaveCount(0);
  await other.getByTestId("deleted-notice-new-chat").click();
  await expect(other).toHaveURL(/\/$/);
  await expect(otherChat.input).toBeVisible();
});

test("a message sent in one tab appears in the other while it is answered, without a reload", async ({ context, chat }) => {
  const id = await chat.startConversation("Which houseplants like low light?");
  await chat.waitForAnswerToFinish();
  const other = await context.newPage();
  const otherChat = new ChatPage(other);
  await otherChat.open(id);
  await expect(otherChat.assistantMessages).toHaveCount(1);

  await chat.send("And which ones are safe for cats?");
  await expect(otherChat.userMessages.last()).toHaveText("And which ones are safe for cats?");
  await expect(otherChat.assistantMessages).toHaveCount(2);
  await expect(otherChat.stopButton).toBeVisible(); // following the answer live, not after the fact
  await chat.waitForAnswerToFinish();
  await otherChat.waitForAnswerToFinish();
  await expect(otherChat.assistantMessages.last()).toContainText("safe for cats");
  await expect(otherChat.assistantMessages.last()).toContainText("restart the server.");
});

test("a tab that opens a conversation while another tab's answer streams follows that answer, by address or from its sidebar", async ({ context, chat }) => {
  const id = await chat.startConversation("Which houseplants like low light?");
  await chat.waitForAnswerToFinish();
  // A tab open on the home page before the run starts, and one opened by address during it.
  const listed = await context.newPage();
  const listedChat = new ChatPage(listed);
  await listedChat.openNew();
  await expect(new Sidebar(listed).row(id)).toBeVisible();

  await chat.send("And which ones are safe for cats?");
  await expect(chat.stopButton).toBeVisible();
  const byAddress = await context.newPage();
  const byAddressChat = new ChatPage(byAddress);
  await byAddressChat.open(id);
  await new Sidebar(listed).link(id).click();
  for (const tab of [byAddressChat, listedChat]) {
    await expect(tab.stopButton).toBeVisible(); // following it live
    await expect(tab.userMessages.last()).toHaveText("And which ones are safe for cats?");
  }
  await chat.waitForAnswerToFinish();
  const answer = await chat.assistantMessages.last().textContent();
  for (const tab of [byAddressChat, listedChat]) {
    await tab.waitForAnswerToFinish();
    await expect(tab.assistantMessages).toHaveCount(2);
    await expect(tab.assistantMessages.last()).toHaveText(answer!);
  }
});

test("a rename in the other tab while a run answers stays through a reload of the running tab and the run's end", async ({ context, page, chat, sidebar }) => {
  const id = await chat.startConversation("Plan a day of trams and castles in Prague");
  await chat.waitForAnswerToFinish();
  await sidebar.rename(id, "Old pin");
  await chat.expectTitle("Old pin");

  const other = await context.newPage();
  const otherChat = new ChatPage(other);
  const otherSidebar = new Sidebar(other);
  await otherChat.open(id);
  await otherChat.expectTitle("Old pin");

  // The run starts from "Old pin"; the other tab renames while it answers, then this tab reloads
  // and joins the run again. The run's values still carry "Old pin" (the rename is written after
  // it ends): neither tab may go back to it, during the run or after.
  await chat.send("Which castle first, and how long should we stay?");
  await chat.waitForAnswerWords(3);
  await otherChat.renameInHeader("Renamed in the other tab");
  await page.reload();
  await expect(chat.input).toBeVisible();
  const titles = async () => [await chat.title.textContent(), await sidebar.rowTitle(id).textContent(), await otherChat.title.textContent(), await otherSidebar.rowTitle(id).textContent()];
  const seen = new Set<string | null>();
  for (let i = 0; i < 20; i++) {
    for (const t of await titles()) seen.add(t);
    await page.waitForTimeout(250);
  }
  await expect.poll(async () => (await apiClient().threads.get(id)).status, { timeout: 30_000 }).toBe("idle");
  await page.waitForTimeout(500);
  for (const t of await titles()) seen.add(t);
  expect([...seen]).toEqual(["Renamed in the other tab"]);
  await expect(sidebar.rowLock(id)).toBeVisible();
  await page.reload();
  await chat.expectTitle("Renamed in the other tab");
});
