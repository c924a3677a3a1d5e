import { expect, fallbackTitle, test } from "./support";

test("markup and bidi controls in a first message become inert title text", async ({ page, chat, sidebar, dialogs }) => {
  const html = "<img src=x onerror=alert(1)>";
  const idHtml = await chat.startConversation(html);
  await expect(sidebar.rowTitle(idHtml)).toHaveText(fallbackTitle(html));
  await expect(sidebar.rowTitle(idHtml)).toHaveText(html);
  await expect(sidebar.row(idHtml).locator("img")).toHaveCount(0);
  await expect(chat.userMessages.first()).toHaveText(html);
  await chat.waitForAnswerToFinish();
  await expect(page.locator("main img")).toHaveCount(0);

  const bidi = "invoice \u202Egnp.exe for March";
  const idBidi = await chat.startConversation(bidi);
  await expect(sidebar.rowTitle(idBidi)).toHaveText(fallbackTitle(bidi));
  const shown = (await sidebar.rowTitle(idBidi).textContent()) ?? "";
  expect(shown).not.toContain("\u202E");
  expect(shown).toContain("invoice");
  await chat.waitForAnswerToFinish();
  expect(await page.title()).not.toContain("\u202E");

  await page.reload();
  await expect(sidebar.rowTitle(idHtml)).toHaveText(html);
  expect(dialogs).toEqual([]);
});
