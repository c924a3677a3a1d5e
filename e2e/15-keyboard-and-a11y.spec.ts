import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { ChatPage } from "./pages/ChatPage";
import { Sidebar } from "./pages/Sidebar";
import { apiClient, expect, test } from "./support";

const TITLES = ["Keyboard row one", "Keyboard row two", "Keyboard row three", "Keyboard row four"];
const MOBILE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A phone-sized page on conversation `id`, with its drawer's conversation list. */
async function openOnPhone(browser: Browser, id: string) {
  const context = await browser.newContext(MOBILE);
  const page = await context.newPage();
  const chat = new ChatPage(page);
  await chat.open(id);
  const drawer = page.getByTestId("drawer");
  return { context, page, chat, drawer, list: new Sidebar(page, drawer) };
}

/** Serious or critical axe violations on the page as it is now (only what is on screen). */
async function seriousViolations(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test.describe("keyboard, focus and accessibility", () => {
  test.describe.configure({ timeout: 120_000 });
  const ids: string[] = [];

  test.beforeAll(async () => {
    const client = apiClient();
    for (const title of TITLES) {
      const thread = await client.threads.create();
      await client.threads.updateState(thread.thread_id, { values: { title } });
      ids.push(thread.thread_id);
    }
  });

  test("skip link first; the list is one Tab stop with arrows inside; focus returns after rename and delete", async ({ page, chat, sidebar }) => {
    const [one, two, three] = ids; // newest last: `three` is above `two` in the list
    await chat.open(two);

    await page.keyboard.press("Tab");
    const skip = page.getByTestId("skip-link");
    await expect(skip).toBeFocused();
    await expect(skip).toHaveText("Skip to conversation");
    await page.keyboard.press("Enter");
    await expect(page.locator("main#conversation")).toBeFocused();

    // Search → Tab enters the list on the open row; Tab again leaves it; Shift+Tab comes back.
    await page.keyboard.press("Control+k");
    await expect(sidebar.search).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(sidebar.link(two)).toBeFocused();
    await page.keyboard.press("Tab");
    const inList = () => page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="sidebar"]')));
    expect(await inList(), "Tab left the list in one step").toBe(false);
    await page.keyboard.press("Shift+Tab");
    await expect(sidebar.link(two)).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(sidebar.search).toBeFocused();
    await page.keyboard.press("Tab");

    // Arrows move inside; the last focused row is the Tab stop; → reaches the row's menu button.
    await page.keyboard.press("ArrowUp");
    await expect(sidebar.link(three)).toBeFocused();
    await page.keyboard.press("Home");
    await expect(sidebar.rows.first().getByTestId("thread-link")).toBeFocused();
    // End: the last row loaded (it scrolls there, which may load the next page: the row keeps the focus).
    const lastId = (await sidebar.rows.last().getAttribute("data-thread-id"))!;
    await page.keyboard.press("End");
    await expect(sidebar.link(lastId)).toBeFocused();
    await page.keyboard.press("Home");
    await sidebar.link(three).focus();
    await page.keyboard.press("ArrowRight");
    await expect(sidebar.menuButton(three)).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(sidebar.link(three)).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(sidebar.search).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(sidebar.link(three)).toBeFocused();

    // Rename: saved or cancelled, the focus comes back to the row.
    await page.keyboard.press("F2");
    await expect(sidebar.editor).toBeFocused();
    await page.keyboard.press("End");
    await page.keyboard.type(" renamed");
    await page.keyboard.press("Enter");
    await expect(sidebar.rowTitle(three)).toHaveText("Keyboard row three renamed");
    await expect(sidebar.link(three)).toBeFocused();
    await page.keyboard.press("F2");
    await page.keyboard.press("Escape");
    await expect(sidebar.editor).toBeHidden();
    await expect(sidebar.link(three)).toBeFocused();

    // A refused title: the focus stays in the field, the message sits under it without covering
    // the next row, and Escape still cancels.
    await page.keyboard.press("F2");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Space");
    await page.keyboard.press("Enter");
    await expect(sidebar.editorError).toHaveText("Title must not be empty");
    await expect(sidebar.editor).toBeFocused();
    const layout = async () => {
      const [message, field, below] = await Promise.all([
        sidebar.editorError.boundingBox(),
        sidebar.editor.boundingBox(),
        sidebar.row(two).boundingBox(),
      ]);
      return { underField: message!.y >= field!.y + field!.height - 1, overNextRow: message!.y + message!.height > below!.y + 1 };
    };
    await expect.poll(layout).toEqual({ underField: true, overNextRow: false });
    await page.keyboard.press("Escape");
    await expect(sidebar.editor).toBeHidden();
    await expect(sidebar.rowTitle(three)).toHaveText("Keyboard row three renamed");
    await expect(sidebar.link(three)).toBeFocused();

    // Delete from the row menu by keyboard: the focus goes to the next row.
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("row-menu")).toBeVisible();
    await page.keyboard.press("End");
    await expect(page.getByTestId("menu-delete")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(sidebar.row(three)).toHaveCount(0);
    await expect(sidebar.link(two)).toBeFocused();
    await page.locator("[data-sonner-toast]").filter({ hasText: "Deleted" }).getByRole("button", { name: "Undo" }).click();
    await expect(sidebar.row(three)).toBeVisible();

    // Deleting the open conversation by keyboard leaves it for the new chat; the focus still goes
    // to the next row (the new chat's message box does not take it), and Undo brings it back.
    await sidebar.link(two).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await page.keyboard.press("End");
    await expect(page.getByTestId("menu-delete")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(sidebar.row(two)).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
    await expect(chat.input).toBeVisible();
    await expect(sidebar.link(one)).toBeFocused();
    await page.waitForTimeout(300); // what a late autofocus would need to take it
    await expect(sidebar.link(one)).toBeFocused();
    await page.locator("[data-sonner-toast]").filter({ hasText: "Deleted" }).getByRole("button", { name: "Undo" }).click();
    await expect(page).toHaveURL(new RegExp(`/c/${two}$`));
    await expect(sidebar.row(two)).toBeVisible();
  });

  test("mobile drawer: a delete or a rename made in it closes it, so its toast's Undo can be tapped", async ({ browser }) => {
    const client = apiClient();
    const made = await client.threads.create();
    await client.threads.updateState(made.thread_id, { values: { title: "Phone drawer row" } });
    const id = made.thread_id;
    const { context, page, drawer, list } = await openOnPhone(browser, ids[1]);
    const undo = page.locator("[data-sonner-toast]").getByRole("button", { name: "Undo" });

    await page.getByTestId("open-drawer").click();
    await list.menuItem(id, "menu-delete");
    await expect(drawer).toBeHidden();
    await undo.tap();
    await page.getByTestId("open-drawer").click();
    await expect(list.rowTitle(id)).toHaveText("Phone drawer row");
    await page.waitForTimeout(5_500); // past the delete's undo window
    expect((await client.threads.get(id)).thread_id).toBe(id);

    await list.rename(id, "Renamed on a phone", "menu");
    await expect(drawer).toBeHidden();
    await undo.tap();
    await expect.poll(async () => ((await client.threads.getState<{ title: string }>(id)).values.title)).toBe("Phone drawer row");
    await page.getByTestId("open-drawer").click();
    await expect(list.rowTitle(id)).toHaveText("Phone drawer row");
    await context.close();
  });

  test("mobile drawer: Escape in a rename stays in the drawer; closing it returns focus to the menu button; 44 px targets", async ({ browser }) => {
    const { context, page, chat, drawer, list } = await openOnPhone(browser, ids[1]);

    await page.getByTestId("open-drawer").click();
    await expect(drawer).toBeVisible();
    await list.link(ids[0]).focus();
    await page.keyboard.press("F2");
    await expect(list.editor).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(list.editor).toBeHidden();
    await expect(drawer).toBeVisible();
    await expect(list.link(ids[0])).toBeFocused();

    // Every control in the drawer, the header and the composer is at least 44 × 44 px.
    const small = await page.evaluate(() => {
      const scope = [document.querySelector('[data-testid="drawer"]'), document.querySelector("header"), document.querySelector('[data-testid="composer-input"]')?.closest("form") ?? null];
      const controls = scope.flatMap((root) => [...(root?.querySelectorAll("a, button, input") ?? [])]);
      return controls
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && box.height > 0 && (box.width < 44 || box.height < 44))
        .map(({ el, box }) => `${el.getAttribute("data-testid") ?? el.tagName} ${Math.round(box.width)}×${Math.round(box.height)}`);
    });
    expect(small).toEqual([]);

    // The focused row's tooltip is whole on the screen (below the row: the row spans the drawer).
    await expect(page.getByTestId("tooltip")).toBeVisible();
    const tipBox = await page.getByTestId("tooltip").boundingBox();
    const rowBox = await list.row(ids[0]).boundingBox();
    expect(tipBox && rowBox).toBeTruthy();
    expect(tipBox!.x).toBeGreaterThanOrEqual(0);
    expect(tipBox!.x + tipBox!.width).toBeLessThanOrEqual(390);
    expect(tipBox!.y).toBeGreaterThanOrEqual(rowBox!.y + rowBox!.height);

    // The focused row's tooltip is dismissed first (WCAG 1.4.13), then the drawer closes.
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("tooltip")).toHaveCount(0);
    await expect(drawer).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(page.getByTestId("open-drawer")).toBeFocused();

    // Following a row opens a new page: its menu button gets the focus.
    await page.getByTestId("open-drawer").click();
    await list.link(ids[0]).click();
    await expect(drawer).toBeHidden();
    await expect(chat.title).toHaveText(TITLES[0]);
    await expect(page.getByTestId("open-drawer")).toBeFocused();
    await context.close();
  });

  test("↓ in the search box moves to the first result, and ↓ again goes on down the results", async ({ page, chat, sidebar }) => {
    await chat.open(ids[0]);
    await page.keyboard.press("Control+k");
    await sidebar.search.fill("Keyboard row t");
    await expect(sidebar.rows).toHaveCount(2);
    await page.keyboard.press("ArrowDown");
    await expect(sidebar.link(ids[2])).toBeFocused(); // "three", the newer of the two
    await page.keyboard.press("ArrowDown");
    await expect(sidebar.link(ids[1])).toBeFocused();
  });

  test("mobile drawer: an Escape that ends an input method's composition neither clears the search nor closes the drawer", async ({ browser }) => {
    const context = await browser.newContext(MOBILE);
    const page = await context.newPage();
    await new ChatPage(page).open(ids[1]);
    const drawer = page.getByTestId("drawer");
    const list = new Sidebar(page, drawer);
    // Dispatched by hand, as an IME sends it: Playwright cannot drive an IME.
    const composingEscape = () =>
      list.search.evaluate((el) => el.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true, isComposing: true })));

    await page.getByTestId("open-drawer").click();
    await expect(drawer).toBeVisible();
    await list.search.fill("京都");
    await composingEscape();
    await expect(list.search).toHaveValue("京都");
    await expect(drawer).toBeVisible();
    await list.search.press("Escape");
    await expect(list.search).toHaveValue("");
    await expect(drawer).toBeVisible();
    // With nothing left to clear, a composition's Escape still leaves the drawer open; a plain one closes it.
    await composingEscape();
    await expect(drawer).toBeVisible();
    await list.search.press("Escape");
    await expect(drawer).toBeHidden();
    await context.close();
  });

  test("on a phone and a narrow window, a rename's Undo toast sits above the composer, which still takes a tap or a click", async ({ browser }) => {
    const sizes = [
      { name: "phone", options: MOBILE },
      { name: "narrow window", options: { viewport: { width: 720, height: 900 } } },
    ];
    for (const [n, { name, options }] of sizes.entries()) {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const chat = new ChatPage(page);
      await chat.open(ids[2]);
      await chat.renameInHeader(`Renamed in a ${name}`);
      const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Renamed to" });
      await expect(toast).toBeVisible();
      // Where it settles (it slides in): its bottom edge above the composer's top.
      await expect
        .poll(async () => {
          const [t, form] = await Promise.all([toast.boundingBox(), chat.input.evaluate((el) => el.closest("form")!.getBoundingClientRect().top)]);
          return t!.y + t!.height <= form + 1;
        }, { message: name })
        .toBe(true);
      if (n === 0) await chat.input.tap();
      else await chat.input.click();
      await expect(chat.input).toBeFocused();
      await context.close();
    }
  });

  test("no serious or critical axe violations, light and dark: home, conversation, row menu, rename editor, mobile drawer", async ({ browser }) => {
    test.setTimeout(240_000);
    const found: string[] = [];
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await desktop.newPage();
    const chat = new ChatPage(page);
    const sidebar = new Sidebar(page);
    const mobile = await browser.newContext(MOBILE);
    const phone = await mobile.newPage();
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await phone.emulateMedia({ colorScheme });
      await chat.openNew();
      found.push(...(await seriousViolations(page, `${colorScheme} home`)));
      await chat.open(ids[1]);
      found.push(...(await seriousViolations(page, `${colorScheme} conversation`)));
      await sidebar.openMenu(ids[0]);
      found.push(...(await seriousViolations(page, `${colorScheme} row menu`)));
      await page.keyboard.press("Escape");
      // The closing menu hands focus back to its button; F2 must not race that hand-back.
      await expect(page.getByTestId("row-menu")).toBeHidden();
      await expect(sidebar.menuButton(ids[0])).toBeFocused();
      await sidebar.startEditing(ids[0], "f2");
      found.push(...(await seriousViolations(page, `${colorScheme} rename editor`)));
      await page.keyboard.press("Escape");

      await new ChatPage(phone).open(ids[1]);
      await phone.getByTestId("open-drawer").click();
      await expect(phone.getByTestId("drawer")).toBeVisible();
      found.push(...(await seriousViolations(phone, `${colorScheme} mobile drawer`)));
    }
    await desktop.close();
    await mobile.close();
    expect(found).toEqual([]);
  });
});
