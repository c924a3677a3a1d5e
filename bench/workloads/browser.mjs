import { chromium } from "playwright";

/**
 * Workload 7: the sidebar in real Chromium (the flags of playwright.config.ts): time from
 * navigation until the first row is visible (the median of `navigations` visits, each in a fresh
 * browser context, so one slow or fast visit is not the figure), most rows in the DOM, and long
 * tasks (> 50 ms, PerformanceObserver 'longtask') while scrolling the list to its end (last visit).
 */
const ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export async function runBrowser(target, { total, oldestTitle, capMs, navigations = 5 }, rec) {
  const errors = [];
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ARGS });
  try {
    // One untimed visit first, so the figure is a user's navigation, not the server's first render.
    const warm = await browser.newPage();
    await warm.goto(`${target.baseUrl}/`);
    await warm.getByTestId("thread-row").first().waitFor();
    await warm.close();
    const visits = [];
    let page;
    for (let n = 0; n < navigations; n++) {
      await page?.context().close();
      page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.on("pageerror", (err) => errors.push(`page error: ${err.message}`));
      await page.addInitScript(() => {
        window.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longTasks.push({ at: e.startTime, ms: e.duration });
        }).observe({ type: "longtask", buffered: true });
      });
      await page.goto(`${target.baseUrl}/`, { waitUntil: "commit" });
      // performance.now() in the page counts from navigation start.
      visits.push(
        await (
          await page.waitForFunction(() => {
            const row = document.querySelector('[data-testid="thread-row"]');
            const box = row?.getBoundingClientRect();
            return box && box.height > 0 && box.bottom > 0 ? performance.now() : false;
          }, null, { polling: "raf", timeout: 60_000 })
        ).jsonValue(),
      );
    }
    const sorted = [...visits].sort((a, b) => a - b);
    const visibleMs = sorted[Math.floor((sorted.length - 1) / 2)];
    const spread = `median of ${visits.length} visits, ${sorted[0].toFixed(0)}–${sorted.at(-1).toFixed(0)} ms`;
    // Server-rendered rows show before hydration: wait until the page is loaded and quiet (no long
    // task for 1 s), so hydration's work is not counted as scrolling.
    const scrollStart = await (
      await page.waitForFunction(() => {
        const last = window.__longTasks.at(-1);
        const quietSince = last ? last.at + last.ms : 0;
        return document.readyState === "complete" && performance.now() - quietSince > 1000 ? performance.now() : false;
      }, null, { polling: 200, timeout: 30_000 })
    ).jsonValue();
    const loadTasks = await page.evaluate(() => window.__longTasks.length);
    const scroller = page.getByTestId("thread-scroll");
    const oldest = page.getByTestId("thread-title").filter({ hasText: oldestTitle });
    const deadline = Date.now() + capMs;
    let maxRows = 0;
    let screens = 0;
    let reachedEnd = false;
    while (Date.now() < deadline) {
      maxRows = Math.max(maxRows, await page.locator('[data-testid="thread-row"]').count());
      if (await oldest.isVisible()) {
        reachedEnd = true;
        break;
      }
      await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight));
      screens++;
      await page.waitForTimeout(50);
    }
    const tasks = await page.evaluate((from) => window.__longTasks.filter((t) => t.at >= from), scrollStart);
    const loaded = await page.locator('[data-testid="thread-row"]').count();
    // How far the list got (rows of 36 px scrolled past): screens alone count scrolls that hit a
    // bottom still waiting for its next page.
    const rowsPast = await scroller.evaluate((el) => Math.round((el.scrollTop + el.clientHeight) / 36));
    const longest = tasks.reduce((m, t) => Math.max(m, t.ms), 0);
    const scrolled = reachedEnd
      ? `reached the oldest of ${total} after ${screens} screens`
      : `${screens} screens in the ${capMs / 1000}s cap, ~${rowsPast} rows down, end not reached`;
    rec.value("ui.visible", target, visibleMs, `${total} conversations; ${spread}; ${loadTasks} long tasks while the last one loaded and hydrated`);
    rec.value("ui.rows", target, Math.max(maxRows, loaded));
    rec.value("ui.longtasks", target, tasks.length, `${scrolled}; longest ${longest.toFixed(0)} ms`);
    console.log(`  browser: first row ${visibleMs.toFixed(0)} ms (${spread}), ≤${maxRows} rows, ${tasks.length} long tasks (longest ${longest.toFixed(0)} ms), ${scrolled}`);
  } finally {
    await browser.close();
  }
  return { errors };
}
