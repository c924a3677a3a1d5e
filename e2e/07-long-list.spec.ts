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

  test("rows are grouped by the browser's calendar: three days later they are in “Previous 7 days”", async ({ page, sidebar }) => {
    await page.clock.setFixedTime(new Date(Date.now() + 3 * DAY));
    await page.goto("/");
    await expect(sidebar.groups.first()).toHaveText("Starred");
    await expect(sidebar.groups.nth(1)).toHaveText("Previous 7 days");
    await expect(sidebar.groups.filter({ hasText: "Today" })).toHaveCount(0);
  });
});
