import { ChatPage } from "./pages/ChatPage";
import { Sidebar } from "./pages/Sidebar";
import { apiClient, expect, fallbackTitle, test } from "./support";

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

  // After a refused title, leaving the field (blur) cancels too; nothing changes.
  await sidebar.startEditing(id, "double-click");
  await sidebar.editor.fill("   ");
  await sidebar.editor.press("Enter");
  await expect(sidebar.editorError).toBeVisible();
  await expect(sidebar.editor).toBeFocused();
  await chat.input.click();
  await expect(sidebar.editor).toBeHidden();
  await expect(sidebar.rowTitle(id)).toHaveText(original);
  await expect(sidebar.rowLock(id)).toHaveCount(0);

  // A second conversation, so there is somewhere for the arrow keys to go even when run alone.
  const other = await apiClient().threads.create();
  await apiClient().threads.updateState(other.thread_id, { values: { title: "Keyboard neighbour" } });
  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText(original);
  await expect(sidebar.rowLock(id)).toHaveCount(0);

  // Keyboard only: Up/Down move between rows, F2 edits the focused one.
  await sidebar.row(id).getByTestId("thread-link").focus();
  await page.keyboard.press("End");
  await page.keyboard.press("Home");
  await expect(sidebar.rows.first().getByTestId("thread-link")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(sidebar.rows.nth(1).getByTestId("thread-link")).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("F2");
  await expect(sidebar.editor).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(sidebar.editor).toBeHidden();
});

test("a rename left by a click elsewhere is saved, and the focus stays where the click put it", async ({ page, chat, sidebar }) => {
  const id = await chat.startConversation("Plan a weekend of hiking in the Alps");
  await chat.waitForAnswerToFinish();
  const other = await apiClient().threads.create();
  await apiClient().threads.updateState(other.thread_id, { values: { title: "The other conversation" } });
  await page.reload();
  await expect(sidebar.rowTitle(other.thread_id)).toHaveText("The other conversation");

  // In the sidebar, then a click on the composer: what is typed next goes there.
  await sidebar.startEditing(id, "double-click");
  await sidebar.editor.fill("Alps hiking weekend");
  await chat.input.click();
  await expect(sidebar.editor).toBeHidden();
  await expect(sidebar.rowTitle(id)).toHaveText("Alps hiking weekend");
  await expect(sidebar.rowLock(id)).toBeVisible();
  await page.keyboard.type("hello there");
  await expect(chat.input).toBeFocused();
  await expect(chat.input).toHaveValue("hello there");

  // A title that is refused, then a click on the composer: nothing changes, a toast says why, and
  // the focus stays in the composer.
  await sidebar.startEditing(id, "double-click");
  await sidebar.editor.fill("   ");
  await chat.input.click();
  await expect(sidebar.editor).toBeHidden();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Title must not be empty" })).toBeVisible();
  await expect(sidebar.rowTitle(id)).toHaveText("Alps hiking weekend");
  await expect(chat.input).toBeFocused();

  // The same, left unchanged, then a click on the search box.
  await sidebar.startEditing(id, "double-click");
  await sidebar.search.click();
  await expect(sidebar.editor).toBeHidden();
  await page.keyboard.type("alps");
  await expect(sidebar.search).toBeFocused();
  await expect(sidebar.search).toHaveValue("alps");
  await sidebar.search.fill("");

  // In the header, then a click on the composer.
  await chat.title.dblclick();
  await expect(chat.titleEditor).toBeFocused();
  await chat.titleEditor.fill("Alps, three days");
  await chat.input.click();
  await expect(chat.titleEditor).toBeHidden();
  await chat.expectTitle("Alps, three days");
  await expect(chat.input).toBeFocused();

  // A click on the conversation's bare header edge focuses the conversation (<main tabindex=-1>):
  // the focus stays there too, not pulled back to the title.
  await chat.title.dblclick();
  await chat.titleEditor.fill("Alps, four days");
  await page.getByTestId("chat-view").locator("header").click({ position: { x: 2, y: 2 } });
  await expect(chat.titleEditor).toBeHidden();
  await chat.expectTitle("Alps, four days");
  await expect(page.locator("main#conversation")).toBeFocused();
});

test("on a phone, closing the drawer while a title is being edited saves it as leaving the field does", async ({ browser }) => {
  const client = apiClient();
  const thread = await client.threads.create();
  await client.threads.updateState(thread.thread_id, { values: { title: "Before the drawer closed" } });
  const id = thread.thread_id;
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const chat = new ChatPage(page);
  await chat.open(id);
  const drawer = page.getByTestId("drawer");
  const list = new Sidebar(page, drawer);

  // A tap on the dimmed page beside the drawer closes it: the typed title is saved and pinned.
  await page.getByTestId("open-drawer").click();
  await list.startEditing(id, "menu");
  await list.editor.fill("Saved by closing the drawer");
  await page.mouse.click(380, 400);
  await expect(drawer).toBeHidden();
  await chat.expectTitle("Saved by closing the drawer");
  await expect.poll(async () => (await client.threads.getState(id)).values).toMatchObject({ title: "Saved by closing the drawer", title_source: { kind: "user" } });
  await page.getByTestId("open-drawer").click();
  await expect(list.rowTitle(id)).toHaveText("Saved by closing the drawer");
  await expect(list.editor).toHaveCount(0);

  // A refused title, then a tap beside the drawer: as a click elsewhere, nothing is sent and a
  // toast says why.
  await list.startEditing(id, "menu");
  await list.editor.fill("x".repeat(201));
  await page.mouse.click(380, 400);
  await expect(drawer).toBeHidden();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "Title must be at most 200 characters" })).toBeVisible();
  await chat.expectTitle("Saved by closing the drawer");

  // The drawer's close button is somewhere else to go: saved too.
  await page.getByTestId("open-drawer").click();
  await list.startEditing(id, "menu");
  await list.editor.fill("Saved by the close button");
  await page.getByTestId("close-drawer").click();
  await expect(drawer).toBeHidden();
  await chat.expectTitle("Saved by the close button");
  await expect.poll(async () => ((await client.threads.getState(id)).values as { title?: string }).title).toBe("Saved by the close button");
  await context.close();
});

test("a title of 100 emoji families (1,100 UTF-16 units, 100 characters) is saved whole, not cut at a length the field counts in units", async ({ chat, sidebar }) => {
  const thread = await apiClient().threads.create();
  await apiClient().threads.updateState(thread.thread_id, { values: { title: "Before the families" } });
  await chat.open(thread.thread_id);
  const families = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}".repeat(100);
  await sidebar.rename(thread.thread_id, families);
  await expect.poll(async () => ((await apiClient().threads.getState(thread.thread_id)).values as { title?: string }).title).toBe(families);
  await expect(sidebar.rowTitle(thread.thread_id)).toHaveText(families);
});

test("keys that belong to an input method's composition neither save, cancel nor send", async ({ page, chat, sidebar }) => {
  const text = "Suggest a three day walking route around Kyoto";
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  // What a Japanese IME sends: Enter and Escape while composing (isComposing), and Safari's Enter
  // that ends a composition (keyCode 229). Dispatched by hand: Playwright cannot drive an IME.
  const imeKey = (key: string, init: { isComposing?: boolean; keyCode?: number }) =>
    page.evaluate(
      ([k, i]) => document.activeElement?.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...i })),
      [key, init] as const,
    );

  await sidebar.startEditing(id);
  await sidebar.editor.fill("京都の散歩");
  await imeKey("Enter", { isComposing: true });
  await imeKey("Enter", { keyCode: 229 });
  await imeKey("Escape", { isComposing: true });
  await expect(sidebar.editor).toBeVisible();
  await expect(sidebar.editor).toHaveValue("京都の散歩");
  await sidebar.editor.press("Enter");
  await expect(sidebar.editor).toBeHidden();
  await expect(sidebar.rowTitle(id)).toHaveText("京都の散歩");
  await expect(sidebar.rowLock(id)).toBeVisible();

  await chat.input.fill("散歩の後で");
  await chat.input.focus();
  await imeKey("Enter", { isComposing: true });
  await imeKey("Enter", { keyCode: 229 });
  await expect(chat.input).toHaveValue("散歩の後で");
  await expect(chat.userMessages).toHaveCount(1);
});

test("a pasted search longer than the API takes still searches, and its no-match line stays inside the sidebar", async ({ chat, sidebar }) => {
  const id = await chat.startConversation("Bulk pricing for printed tote bags");
  await chat.waitForAnswerToFinish();
  await sidebar.search.fill(`bulk ${"x".repeat(600)}`);
  const empty = sidebar.root.getByTestId("list-empty");
  await expect(empty).toContainText("No titles match");
  await expect(sidebar.root.getByRole("alert")).toHaveCount(0);
  const [box, aside] = await Promise.all([empty.boundingBox(), sidebar.root.boundingBox()]);
  expect(box!.x + box!.width).toBeLessThanOrEqual(aside!.x + aside!.width + 1);
  expect(await empty.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  // Only its first words count: a long run of one word that the title has still finds it.
  await sidebar.search.fill("bulk ".repeat(150));
  await expect(sidebar.row(id)).toBeVisible();
  await expect(sidebar.root.getByRole("alert")).toHaveCount(0);
});

test("a title search lists what matches the titles now: typed again after a rename, and while it is shown", async ({ page, chat, sidebar }) => {
  const word = `kx${Date.now().toString(36)}`;
  const id = await chat.startConversation("Feeding schedule for a young llama");
  await chat.waitForAnswerToFinish();
  const empty = sidebar.root.getByTestId("list-empty");

  // (a) Searched before the rename, nothing; the same search typed again after it finds the row.
  await sidebar.search.fill(word);
  await expect(empty).toContainText("No titles match");
  await sidebar.search.fill("");
  await sidebar.rename(id, `Llamas ${word}`);
  await sidebar.search.fill(word);
  await expect(sidebar.row(id)).toBeVisible();
  await expect(empty).toHaveCount(0);

  // (b) While a search that matches nothing is shown, the open conversation is renamed to match it.
  const other = `qz${Date.now().toString(36)}`;
  await sidebar.search.fill(other);
  await expect(empty).toContainText("No titles match");
  await chat.renameInHeader(`Hay and ${other}`);
  await expect(sidebar.row(id)).toBeVisible();
  await expect(sidebar.rowTitle(id)).toHaveText(`Hay and ${other}`);

  // (c) While a search is shown on the new-chat page, a conversation whose first message matches
  // it is started there.
  const third = `gl${Date.now().toString(36)}`;
  await chat.openNew();
  await sidebar.search.fill(third);
  await expect(empty).toContainText("No titles match");
  // The run (and with it the server's title) comes a second after the thread: the search asked
  // again when the browser showed its own instant title cannot find it yet.
  await page.route("**/runs/stream", async (route) => {
    await new Promise((r) => setTimeout(r, 1_000));
    await route.continue();
  });
  await chat.send(`${third} facts for a school project`);
  const made = await chat.threadId();
  await expect(sidebar.row(made)).toBeVisible();
  await expect(sidebar.rowTitle(made)).toHaveText(`${third} facts for a school project`);
  await chat.waitForAnswerToFinish();
  await expect(sidebar.row(made)).toBeVisible();
});
