import { expect, fallbackTitle, test } from "./support";
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

  // Delete (after the undo window) disappears from the other tab, which leaves the deleted page.
  await sidebar.menuItem(id, "menu-delete");
  await expect(sidebar.row(id)).toBeHidden();
  await expect(otherSidebar.row(id)).toBeHidden({ timeout: 15_000 });
  await expect(other).toHaveURL(/\/$/);
});
