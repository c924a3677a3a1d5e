import { expect, fallbackTitle, test } from "./support";

test("Esc cancels an edit; an empty title is refused with a message and nothing changes", async ({ page, chat, sidebar }) => {
  const text = "Compare electric and gas stoves for a small kitchen";
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  const original = fallbackTitle(text);
  await expect(sidebar.rowTitle(id)).toHaveText(original);

  await sidebar.startEditing(id, "double-click");
  await sidebar.editor.fill("Something else");
  await sidebar.editor.press("Escape");
  await expect(sidebar.editor).toBeHidden();
  await expect(sidebar.rowTitle(id)).toHaveText(original);
  await expect(sidebar.rowLock(id)).toHaveCount(0);

  await sidebar.startEditing(id, "menu");
  await sidebar.editor.fill("   ");
  await sidebar.editor.press("Enter");
  await expect(sidebar.editorError).toHaveText("Title must not be empty");
  await expect(sidebar.editor).toHaveAttribute("aria-invalid", "true");
  await sidebar.editor.press("Escape");
  await expect(sidebar.editor).toBeHidden();
  await expect(sidebar.rowTitle(id)).toHaveText(original);
  await expect(sidebar.rowLock(id)).toHaveCount(0);
  await chat.expectTitle(original);

  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText(original);
  await expect(sidebar.rowLock(id)).toHaveCount(0);
});
