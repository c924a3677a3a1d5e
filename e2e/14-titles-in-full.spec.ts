import { apiClient, expect, fallbackTitle, test } from "./support";

const LONG_TITLE =
  "Planning a three-week rail journey from Lisbon through Madrid, Barcelona and Lyon to Vienna with a bicycle and two children";

/** A thread created through the API, renamed to `title`. */
async function seedThread(title: string): Promise<string> {
  const client = apiClient();
  const thread = await client.threads.create();
  await client.threads.updateState(thread.thread_id, { values: { title } });
  return thread.thread_id;
}

test.describe("titles, read and renamed in full", () => {
  test.describe.configure({ timeout: 120_000 });
  let farId = "";

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    // The oldest thread, pushed beyond the first page (50 rows) by newer ones.
    farId = await seedThread("Far away conversation");
    for (let i = 0; i < 55; i++) await seedThread(`Newer filler ${i}`);
  });

  test("a long title is read in full above its provenance, in the row and the header", async ({ page, chat, sidebar }) => {
    const id = await seedThread(LONG_TITLE);
    await chat.open(id);
    await expect(sidebar.rowTitle(id)).toHaveText(LONG_TITLE);
    await sidebar.rowTitle(id).hover();
    await expect(sidebar.tooltip().title).toHaveText(LONG_TITLE);
    await expect(sidebar.tooltip().provenance).toHaveText("Named by you");
    // The whole title is on screen, not cut with an ellipsis.
    const box = await sidebar.tooltip().title.boundingBox();
    const lineHeight = 16;
    expect(box && box.height).toBeGreaterThan(lineHeight);

    await page.keyboard.press("Escape");
    await expect(page.getByTestId("tooltip")).toHaveCount(0);
    await chat.title.focus();
    await expect(sidebar.tooltip().title).toHaveText(LONG_TITLE);
    await expect(sidebar.tooltip().provenance).toHaveText("Named by you");
  });

  test("a conversation beyond the loaded pages shows in the sidebar and is renamed from the header", async ({ page, chat, sidebar }) => {
    await chat.open(farId);
    await expect(sidebar.row(farId)).toBeVisible();
    await expect(sidebar.link(farId)).toHaveAttribute("aria-current", "page");
    await chat.expectTitle("Far away conversation");

    await chat.renameInHeader("Found it again", "double-click");
    await chat.expectTitle("Found it again");
    await expect(sidebar.rowTitle(farId)).toHaveText("Found it again");
    await expect(chat.title).toBeFocused();

    // F2 on the header title, Escape cancels; the focus stays on the title.
    await page.keyboard.press("F2");
    await expect(chat.titleEditor).toBeFocused();
    await chat.titleEditor.fill("Not this");
    await page.keyboard.press("Escape");
    await expect(chat.titleEditor).toBeHidden();
    await expect(chat.title).toBeFocused();
    await chat.expectTitle("Found it again");

    await page.reload();
    await chat.expectTitle("Found it again");
    await expect(sidebar.rowTitle(farId)).toHaveText("Found it again");
  });

  test("the server-rendered header and tab title read the registry: a pin made while answering shows at once", async ({ page, chat }) => {
    const text = "Explain how a heat pump works in winter, step by step, for a homeowner, with costs";
    const id = await chat.startConversation(text);
    await expect(chat.stopButton).toBeVisible();
    await apiClient().threads.updateState(id, { values: { title: "Pinned mid-answer" } });
    const html = await (await page.request.get(`/c/${id}`)).text();
    expect(await chat.isStreaming(), "the pin was still pending when the page was rendered").toBe(true);
    expect(html).toContain("<title>Pinned mid-answer · Threadline</title>");
    expect(html).toMatch(/data-testid="chat-title"[^>]*><bdi>Pinned mid-answer<\/bdi>/);
    await chat.waitForAnswerToFinish();
    await page.reload();
    await chat.expectTitle("Pinned mid-answer");
  });

  test("“Let AI name this” waits for the answer, and says why", async ({ page, chat, sidebar }) => {
    const client = apiClient();
    const id = await seedThread("Alps packing");
    // Three queued answers keep the conversation busy for a while, whatever the machine's speed.
    const ask = (i: number) =>
      client.runs.create(id, "agent", {
        input: { messages: [{ type: "human", content: `Packing list for the Alps, part ${i}, with reasons for each item` }] },
        multitaskStrategy: "enqueue",
      });
    await ask(1);
    await ask(2);
    const last = await ask(3);
    await chat.open(id);
    await expect(sidebar.rowLock(id)).toBeVisible();

    await sidebar.openMenu(id);
    const regenerate = page.getByTestId("menu-regenerate");
    await expect(regenerate).toHaveAttribute("aria-disabled", "true");
    await regenerate.hover();
    await expect(page.getByTestId("tooltip").filter({ hasText: "Available when the answer has finished" })).toBeVisible();
    await regenerate.click({ force: true }); // Playwright itself would wait for an enabled item
    await expect(regenerate).toBeVisible(); // nothing happened: the menu is still open
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
    await page.keyboard.press("Escape"); // the tooltip
    await page.keyboard.press("Escape"); // the menu
    await expect(page.getByTestId("row-menu")).toHaveCount(0);
    await expect(sidebar.rowTitle(id)).toHaveText("Alps packing");

    await client.runs.join(id, last.run_id);
    await page.reload();
    await sidebar.openMenu(id);
    await expect(regenerate).not.toHaveAttribute("aria-disabled", "true");
    await regenerate.click();
    await expect(sidebar.rowLock(id)).toHaveCount(0);
    await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle("Packing list for the Alps, part 1, with reasons for each item"));
  });

  test("a failed action's toast speaks to people: no thread id, no API text", async ({ page, chat, sidebar }) => {
    const id = await seedThread("Soon deleted elsewhere");
    await chat.openNew();
    await expect(sidebar.rowTitle(id)).toHaveText("Soon deleted elsewhere");
    await apiClient().threads.delete(id);
    await sidebar.rename(id, "Too late");
    const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Couldn't rename" });
    await expect(toast).toHaveText(/Couldn't rename the conversation\. It no longer exists: it may have been deleted in another tab\./);
    const text = (await toast.textContent()) ?? "";
    expect(text).not.toContain(id);
    expect(text).not.toMatch(/HTTP|404|detail|not found/i);
  });
});
