import { expect, fallbackTitle, test } from "./support";

test("naming it again (“Name it from the first message” without a title model) unpins a renamed conversation and replaces its title", async ({ page, chat, sidebar }) => {
  const text = "Give me a weekly workout plan for running a first 10k";
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  await sidebar.rename(id, "My running plan");
  await expect(sidebar.rowLock(id)).toBeVisible();
  const undoToast = page.locator("[data-sonner-toast]").filter({ hasText: "Renamed to “My running plan”" });
  await expect(undoToast).toBeVisible();

  // The menu offers it only on pinned rows; with no title model set, it says no AI is involved.
  await sidebar.openMenu(id);
  await expect(page.getByTestId("menu-regenerate")).toHaveText("Name it from the first message");
  await expect(undoToast).toBeVisible();
  await page.getByTestId("menu-regenerate").click();
  await expect(sidebar.rowLock(id)).toHaveCount(0);
  // The rename's Undo went with the title it would have undone (it could only answer 409 now),
  // long before its 8 s were up.
  await expect(undoToast).toHaveCount(0, { timeout: 2000 });
  await expect(sidebar.rowTitle(id)).not.toHaveText("My running plan");
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(sidebar.row(id)).not.toHaveAttribute("data-title-source", "user");
  await chat.expectTitle(fallbackTitle(text));
  await expect(chat.headerLock).toHaveCount(0);

  await sidebar.openMenu(id);
  await expect(page.getByTestId("menu-regenerate")).toHaveCount(0);
  await page.keyboard.press("Escape");

  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(sidebar.rowLock(id)).toHaveCount(0);
});
