import { Sidebar } from "./pages/Sidebar";
import { apiClient, expect, test } from "./support";

const COUNT = 1000;
const label = (n: number) => `Seeded ${String(n).padStart(4, "0")}`;
const DAY = 24 * 60 * 60 * 1000;

/** Runs `job` over 0..n-1 with a few requests in flight. */
async function pool(n: number, width: number, job: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await job(next++);
    }),
  );
}

test.describe("a long list", () => {
  test.describe.configure({ timeout: 180_000 });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const client = apiClient();
    await pool(COUNT, 8, async (i) => {
      const n = i + 1; // created in order: 0001 is the oldest
      const thread = await client.threads.create({ metadata: { seeded: true } });
      await client.threads.updateState(thread.thread_id, { values: { title: `${label(n)} notes about topic ${n % 37}` } });
      if (n % 400 === 0) await client.threads.update(thread.thread_id, { metadata: { starred: true } });
    });
  });

  test("1,000 threads: date groups, at most 80 rows in the DOM while scrolling, server-side title search", async ({ page, sidebar }) => {
    const listBodies: Array<Record<string, unknown>> = [];
    // Conversation pages fetched ahead (Next's RSC prefetch): only on intent, never per row scrolled by.
    let prefetches = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/threads/search")) listBodies.push(r.postDataJSON() as Record<string, unknown>);
      if (new URL(r.url()).pathname.startsWith("/c/") && r.headers()["rsc"]) prefetches++;
    });
    await page.goto("/");
    await expect(sidebar.groups.first()).toHaveText("Starred");
    await expect(sidebar.groups.filter({ hasText: "Today" })).toHaveCount(1);
    await expect(sidebar.rows.first()).toBeVisible();

    // Scroll to the very bottom: pages load as we go, the DOM stays small.
    let maxRows = 0;
    for (let step = 0; step < 80; step++) {
      maxRows = Math.max(maxRows, await sidebar.rows.count());
      if (await sidebar.root.getByText(label(1), { exact: false }).isVisible()) break;
      await sidebar.scroller.evaluate((el) => el.scrollBy(0, 1800));
      await page.waitForTimeout(120);
    }
    await expect(sidebar.root.getByText(label(1), { exact: false })).toBeVisible();
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "true");
    expect(maxRows).toBeGreaterThan(10);
    expect(maxRows).toBeLessThanOrEqual(80);
    // A row under a resting pointer may be prefetched (hover); scrolling past 1,000 rows is not.
    expect(prefetches).toBeLessThanOrEqual(2);

    // Lean pages (no values), one snapshot instant for every page of the list.
    const pages = listBodies.filter((b) => !(b.metadata as Record<string, unknown>).starred);
    expect(pages.length).toBeGreaterThanOrEqual(COUNT / 50 - 2);
    for (const body of pages) {
      expect(body.select).not.toContain("values");
      expect(body.extract).toEqual({ title: "values.title", title_source: "values.title_source" });
    }
    expect(new Set(pages.map((b) => (b.metadata as Record<string, unknown>).$as_of)).size).toBe(1);

    // Ctrl+K → search, answered by the server's title index.
    await page.keyboard.press("Control+k");
    await expect(sidebar.search).toBeFocused();
    await sidebar.search.fill("seeded 0457");
    await expect(sidebar.rows).toHaveCount(1);
    await expect(sidebar.rows.first().getByTestId("thread-title")).toHaveText(`${label(457)} notes about topic ${457 % 37}`);
    await sidebar.search.fill("no such title anywhere");
    await expect(page.getByTestId("list-empty")).toBeVisible();
    await sidebar.search.press("Escape");
    await expect(sidebar.rows.first()).toBeVisible();
  });

  test("a row scrolled into view is a plain link and button: first click navigates, one shared tooltip and menu serve every row", async ({ page, sidebar }) => {
    await page.goto("/");
    await expect(sidebar.rows.first()).toBeVisible();
    await sidebar.scroller.evaluate((el) => el.scrollBy(0, 5000));
    // The next page has come (the list is virtual from there on); back to the top, the rows
    // below are scrolled into view again before they are picked.
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "true");
    await sidebar.scroller.evaluate((el) => el.scrollTo(0, 0));
    await expect(sidebar.rows.first()).toBeInViewport();
    const row = sidebar.rows.nth(12);
    await expect(row).toBeVisible();
    const id = (await row.getAttribute("data-thread-id"))!;
    // No row carries a Radix trigger of its own; the list has one tooltip anchor and one menu anchor.
    await expect(sidebar.root.locator('[data-testid="thread-link"][data-state]')).toHaveCount(0);
    await expect(sidebar.root.getByTestId("row-tooltip-anchor")).toHaveCount(1);
    await expect(sidebar.root.getByTestId("row-menu-anchor")).toHaveCount(1);

    // Hover: the shared tooltip shows this row's title; the link under it is the same element.
    const link = sidebar.link(id);
    await link.evaluate((el) => ((el as HTMLElement & { __probe?: boolean }).__probe = true));
    await sidebar.rowTitle(id).hover();
    await expect(sidebar.tooltip().title).toHaveText((await sidebar.rowTitle(id).textContent())!);
    expect(await link.evaluate((el) => (el as HTMLElement & { __probe?: boolean }).__probe)).toBe(true);

    // Menu by pointer on a second row while the first's is open: it moves, then Escape returns focus.
    await sidebar.openMenu(id);
    await expect(sidebar.menuButton(id)).toHaveAttribute("aria-expanded", "true");
    const other = (await sidebar.rows.nth(13).getAttribute("data-thread-id"))!;
    await sidebar.row(other).hover();
    await sidebar.menuButton(other).click();
    await expect(page.getByTestId("row-menu")).toHaveCount(1);
    await expect(sidebar.menuButton(other)).toHaveAttribute("aria-expanded", "true");
    await expect(sidebar.menuButton(id)).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("row-menu")).toHaveCount(0);
    await expect(sidebar.menuButton(other)).toBeFocused();

    // Keyboard: ← to the link, ↓ to the next row (its tooltip follows focus), → Enter opens its menu.
    await page.keyboard.press("ArrowLeft");
    await expect(sidebar.link(other)).toBeFocused();
    // The row after it on screen (taken before the key: the window may move with the focus).
    const nextId = await sidebar.rows.evaluateAll((rows, other) => {
      const at = rows.findIndex((r) => (r as HTMLElement).dataset.threadId === other);
      return (rows[at + 1] as HTMLElement).dataset.threadId!;
    }, other);
    await page.keyboard.press("ArrowDown");
    const next = sidebar.row(nextId);
    await expect(next.getByTestId("thread-link")).toBeFocused();
    await expect(sidebar.tooltip().title).toHaveText((await next.getByTestId("thread-title").textContent())!);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("menu-rename")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(next.getByTestId("row-menu-button")).toBeFocused();

    // A menu whose row scrolls out of the rendered window closes.
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("row-menu")).toBeVisible();
    await sidebar.scroller.evaluate((el) => el.scrollBy(0, 6000));
    await expect(page.getByTestId("row-menu")).toHaveCount(0);
    await sidebar.scroller.evaluate((el) => el.scrollBy(0, -6000));

    // A first click on a row never pointed at before navigates.
    const far = sidebar.rows.nth(18);
    const farId = (await far.getAttribute("data-thread-id"))!;
    await far.getByTestId("thread-link").click();
    await expect(page).toHaveURL(new RegExp(`/c/${farId}$`));
  });

  test("rows are grouped by the browser's calendar: three days later they are in “Previous 7 days”", async ({ page, sidebar }) => {
    await page.clock.setFixedTime(new Date(Date.now() + 3 * DAY));
    await page.goto("/");
    await expect(sidebar.groups.first()).toHaveText("Starred");
    await expect(sidebar.groups.nth(1)).toHaveText("Previous 7 days");
    await expect(sidebar.groups.filter({ hasText: "Today" })).toHaveCount(0);
  });

  test("growing past one page keeps the scroll position and the focused row (the plain list becomes the virtual one)", async ({ page, sidebar }) => {
    await page.goto("/");
    await expect(sidebar.rows.first()).toBeVisible();
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "false");
    // By the wheel's steps: the next page loads near the end, and the list is virtual from then on.
    let before = 0;
    for (let step = 0; step < 30 && (await sidebar.scroller.getAttribute("data-virtual")) === "false"; step++) {
      before = await sidebar.scroller.evaluate((el) => el.scrollTop);
      await sidebar.scroller.hover();
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(150);
    }
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "true");
    expect(before).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    expect(await sidebar.scroller.evaluate((el) => el.scrollTop)).toBeGreaterThanOrEqual(before);

    // By keys: End scrolls the plain list to its last row and focuses it; the next page comes,
    // and the focus stays on that row.
    await page.reload();
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "false");
    const lastId = await sidebar.rows.last().getAttribute("data-thread-id");
    await sidebar.rows.first().getByTestId("thread-link").focus();
    await page.keyboard.press("End");
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "true");
    await expect(sidebar.link(lastId!)).toBeFocused();
    await expect(sidebar.link(lastId!)).toBeInViewport();
    await page.keyboard.press("ArrowDown");
    await expect(sidebar.root.locator(":focus")).toHaveAttribute("data-testid", "thread-link");
    await expect(sidebar.link(lastId!)).not.toBeFocused();
  });

  test("a title being edited when the list turns virtual stays open with what was typed, and is saved only by the user", async ({ page, sidebar }) => {
    await page.goto("/");
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "false");
    const id = (await sidebar.rows.nth(2).getAttribute("data-thread-id"))!;
    const before = (await apiClient().threads.getState<{ title: string }>(id)).values.title;
    await sidebar.startEditing(id, "f2");
    await page.keyboard.type("Kept while");
    // The wheel over the list loads the next page: every row remounts, the editor's too.
    for (let step = 0; step < 30 && (await sidebar.scroller.getAttribute("data-virtual")) === "false"; step++) {
      await sidebar.scroller.hover();
      await page.mouse.wheel(0, 300);
      await page.waitForTimeout(150);
    }
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "true");
    await expect(sidebar.editor).toBeFocused();
    await expect(sidebar.editor).toHaveValue("Kept while");
    // The removal's blur saved nothing.
    expect((await apiClient().threads.getState<{ title: string }>(id)).values.title).toBe(before);
    // The caret is where it was: typing goes on after the text instead of replacing it.
    await page.keyboard.type(" the list grew");
    await page.keyboard.press("Enter");
    await expect(sidebar.editor).toBeHidden();
    await expect(sidebar.rowTitle(id)).toHaveText("Kept while the list grew");
    await expect.poll(async () => (await apiClient().threads.getState<{ title: string }>(id)).values.title).toBe("Kept while the list grew");
  });

  test("on a phone (44 px rows, against the list's 36 px estimate) the list turning virtual keeps the row at its top", async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto("/");
    // The page is live (the drawer's button does nothing before).
    await expect(page.getByTestId("composer-input")).toHaveAttribute("data-draft-restored", "true");
    await page.getByTestId("open-drawer").click();
    const list = new Sidebar(page, page.getByTestId("drawer"));
    await expect(list.rows.first()).toBeVisible();
    expect((await list.rows.first().boundingBox())!.height).toBe(44);
    await expect(list.scroller).toHaveAttribute("data-virtual", "false");
    const topRow = () =>
      list.scroller.evaluate((el) => {
        const top = el.getBoundingClientRect().top;
        const rows = [...el.querySelectorAll<HTMLElement>('[data-testid="thread-row"]')];
        return rows.find((r) => r.getBoundingClientRect().bottom > top + 1)?.dataset.threadId ?? null;
      });
    // Scrolled by steps of 300 px until the next page loads and the list turns virtual.
    let before: string | null = null;
    for (let step = 0; step < 40 && (await list.scroller.getAttribute("data-virtual")) === "false"; step++) {
      before = await topRow();
      await list.scroller.evaluate((el) => el.scrollBy(0, 300));
      await page.waitForTimeout(150);
    }
    await expect(list.scroller).toHaveAttribute("data-virtual", "true");
    await page.waitForTimeout(300);
    const ids = await list.rows.evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.threadId));
    const after = await topRow();
    expect(before).not.toBeNull();
    expect(after).not.toBeNull();
    // The row at the top before the last step is still rendered, above or at the new top row, and
    // within 300 px plus a row of it.
    expect(ids).toContain(before);
    const gap = await list.scroller.evaluate((el, [a, b]) => {
      const box = (id: string) => el.querySelector<HTMLElement>(`[data-thread-id="${id}"]`)!.getBoundingClientRect().top;
      return box(b!) - box(a!);
    }, [before, after]);
    expect(gap).toBeGreaterThanOrEqual(0);
    expect(gap).toBeLessThanOrEqual(300 + 44 + 30);
    await context.close();
  });

  test("a new search starts at its top, also when its results come from the cache into a list already scrolled", async ({ page, sidebar }) => {
    const loadPastOnePage = async () => {
      for (let step = 0; step < 30 && (await sidebar.scroller.getAttribute("data-virtual")) === "false"; step++) {
        await sidebar.scroller.hover();
        await page.mouse.wheel(0, 600);
        await page.waitForTimeout(150);
      }
      await expect(sidebar.scroller).toHaveAttribute("data-virtual", "true");
    };
    const scrollTop = () => sidebar.scroller.evaluate((el) => el.scrollTop);
    const scrollTo = async (top: number) => {
      await sidebar.scroller.evaluate((el, t) => (el.scrollTop = t), top);
      await expect.poll(scrollTop).toBe(top);
    };
    await page.goto("/");
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "false");
    // Two searches that each load past one page (every seeded title has both words); their pages
    // stay in the browser's cache.
    await sidebar.search.fill("notes");
    await loadPastOnePage();
    await sidebar.search.fill("topic");
    await expect.poll(scrollTop).toBe(0);
    await loadPastOnePage();

    // Virtual to virtual: back to the first search (as by deleting what was typed after it).
    await scrollTo(900);
    await sidebar.search.fill("notes");
    await expect.poll(scrollTop).toBe(0);
    await page.waitForTimeout(300);
    expect(await scrollTop()).toBe(0);
    await expect(sidebar.rows.first()).toBeInViewport();

    // Plain to virtual: no search (one page), scrolled down; then the cached search again.
    await sidebar.search.fill("");
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "false");
    await scrollTo(600);
    await sidebar.search.fill("notes");
    await expect(sidebar.scroller).toHaveAttribute("data-virtual", "true");
    await page.waitForTimeout(300);
    expect(await scrollTop()).toBe(0);
    await expect(sidebar.rows.first()).toBeInViewport();
  });
});
