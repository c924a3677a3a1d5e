import { apiClient, expect, fallbackTitle, test } from "./support";

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

const HOSTILE = {
  ansi: "\u001b[31mRED ALERT\u001b[0m build failed",
  zeroWidth: "pass\u200Bword re\u2060set \uFEFFhelp",
  script: "<script>alert('x')</script> deploy notes",
  img: '<img src=x onerror="alert(1)"> holiday photo',
  bidi: "\u202Ecod.exe\u202C report \u2066isolated\u2069",
  huge: "long ".repeat(2048), // 10 kB
};
// ZWJ/ZWNJ are not here: the title engine keeps them on purpose (emoji sequences, some scripts).
const INVISIBLE = /[\u0000-\u001f\u007f\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

test("hostile titles (ANSI, zero-width, script, img, bidi, 10 kB) are inert sanitised text and keep the layout", async ({ page, chat, sidebar, dialogs }) => {
  const client = apiClient();
  const ids: Record<string, string> = {};
  for (const [name, text] of Object.entries(HOSTILE)) {
    const t = await client.threads.create();
    await client.runs.create(t.thread_id, "agent", { input: { messages: [{ type: "human", content: text }] } });
    ids[name] = t.thread_id;
  }
  // A user title goes through the rename path, which sanitises too.
  await expect.poll(async () => (await client.threads.getState<{ title?: string }>(ids.script)).values.title ?? "").not.toBe("");
  await client.threads.updateState(ids.script, { values: { title: "<script>alert(2)</script>\u202E\u200Bpinned" } });

  await page.goto("/");
  for (const [name, text] of Object.entries(HOSTILE)) {
    const title = sidebar.rowTitle(ids[name]);
    if (name !== "script") await expect(title).toHaveText(fallbackTitle(text));
    const shown = (await title.textContent()) ?? "";
    expect(shown, name).not.toMatch(INVISIBLE);
    expect(shown.length, name).toBeLessThanOrEqual(60);
  }
  await expect(sidebar.rowTitle(ids.script)).toHaveText("<script>alert(2)</script>pinned");
  await expect(sidebar.root.locator("img, script")).toHaveCount(0);

  // Layout: no row wider than the sidebar, no horizontal scroll anywhere.
  const aside = (await sidebar.root.boundingBox())!;
  for (const id of Object.values(ids)) {
    const box = (await sidebar.row(id).boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(aside.x + aside.width + 1);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

  await chat.open(ids.huge);
  await chat.expectTitle(fallbackTitle(HOSTILE.huge));
  const header = (await chat.title.boundingBox())!;
  expect(header.x + header.width).toBeLessThanOrEqual(1280);
  await chat.open(ids.bidi);
  expect(await page.title()).not.toMatch(INVISIBLE);
  await expect(page.locator("main img")).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
