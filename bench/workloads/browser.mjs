import { chromium } from "playwright";

/**
 * Workload 7: the sidebar in real Chromium (the flags of playwright.config.ts): time from
 * navigation until the first row is painted (Element Timing; the median of `navigations` visits,
 * each in a fresh browser context, so one slow or fast visit is not the figure) and until a
 * per-frame poll from Playwright sees it (later: the poll needs the CPU the page's scripts hold), most rows in the DOM, and long
 * tasks (> 50 ms, PerformanceObserver 'longtask') while scrolling the list to its end (last visit).
 */
/** Chromium's flags for every bench visit (headless, no background work of its own). */
export const ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

/**
 * In the page, before it loads (addInitScript): `window.__rowPaint` resolves to when the first
 * row's title was painted (Element Timing), NaN after 30 s without it — the browser's own record,
 * which a poll from Playwright only approaches (it runs when Playwright gets the CPU to look).
 */
export function recordFirstRowPaint() {
  window.__rowPaint = new Promise((done) => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.identifier === "first-row") done(e.renderTime || e.loadTime);
    }).observe({ type: "element", buffered: true });
    setTimeout(() => done(NaN), 30_000);
  });
  // The attribute goes on as the parser inserts the title, before its first paint (text is timed
  // on the element holding it).
  new MutationObserver((records, observer) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        const title = n.nodeType === 1 && (n.matches('[data-testid="thread-title"]') ? n : n.querySelector('[data-testid="thread-title"]'));
        if (title) {
          title.setAttribute("elementtiming", "first-row");
          return observer.disconnect();
        }
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

/** ms after navigation start when a per-frame poll first saw a row with a box on screen. */
export async function firstRowSeen(page) {
  const at = await page.waitForFunction(() => {
    const row = document.querySelector('[data-testid="thread-row"]');
    const box = row?.getBoundingClientRect();
    return box && box.height > 0 && box.bottom > 0 ? performance.now() : false;
  }, null, { polling: "raf", timeout: 60_000 });
  return at.jsonValue();
}

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
    const paints = [];
    let page;
    for (let n = 0; n < navigations; n++) {
      await page?.context().close();
      page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.on("pageerror", (err) => errors.push(`page error: ${err.message}`));
      await page.addInitScript(recordFirstRowPaint);
      await page.addInitScript(() => {
        window.__longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longTasks.push({ at: e.startTime, ms: e.duration });
        }).observe({ type: "longtask", buffered: true });
      });
      await page.goto(`${target.baseUrl}/`, { waitUntil: "commit" });
      // performance.now() in the page counts from navigation start.
      visits.push(await firstRowSeen(page));
      const painted = await page.evaluate(() => window.__rowPaint);
      if (!Number.isFinite(painted)) errors.push("no Element Timing entry for the first row");
      else paints.push(painted);
    }
    const median = (xs) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return { at: sorted[Math.floor((sorted.length - 1) / 2)], spread: `median of ${xs.length} visits, ${sorted[0]?.toFixed(0)}–${sorted.at(-1)?.toFixed(0)} ms` };
    };
    const { at: visibleMs, spread } = median(visits);
    const paint = median(paints);
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
    const scrolledAt = [];
    while (Date.now() < deadline) {
      maxRows = Math.max(maxRows, await page.locator('[data-testid="thread-row"]').count());
      if (await oldest.isVisible()) {
        reachedEnd = true;
        break;
      }
      scrolledAt.push(await scroller.evaluate((el) => (el.scrollBy(0, el.clientHeight), performance.now())));
      screens++;
      await page.waitForTimeout(50);
    }
    const tasks = await page.evaluate((from) => window.__longTasks.filter((t) => t.at >= from), scrollStart);
    const loaded = await page.locator('[data-testid="thread-row"]').count();
    // How far the list got (rows of 36 px scrolled past): screens alone count scrolls that hit a
    // bottom still waiting for its next page.
    const rowsPast = await scroller.evaluate((el) => Math.round((el.scrollTop + el.clientHeight) / 36));
    const longest = tasks.reduce((m, t) => Math.max(m, t.ms), 0);
    // Where each long task fell: the screen whose scroll came last before it began (0: before the first).
    const where = tasks.map((t) => `${t.ms.toFixed(0)} ms at screen ${scrolledAt.filter((at) => at <= t.at).length}`).join(", ");
    const scrolled = reachedEnd
      ? `reached the oldest of ${total} after ${screens} screens`
      : `${screens} screens in the ${capMs / 1000}s cap, ~${rowsPast} rows down, end not reached`;
    rec.value("ui.painted", target, paint.at, `${total} conversations; ${paint.spread}; Element Timing of the first row's title`);
    rec.value("ui.visible", target, visibleMs, `${spread}; polled by Playwright each frame; ${loadTasks} long tasks while the last one loaded and hydrated`);
    rec.value("ui.rows", target, Math.max(maxRows, loaded));
    rec.value("ui.longtasks", target, tasks.length, `${scrolled}; longest ${longest.toFixed(0)} ms${where ? ` (${where})` : ""}`);
    console.log(`  browser: first row painted at ${paint.at?.toFixed(0)} ms (${paint.spread}), seen by the poll at ${visibleMs.toFixed(0)} ms (${spread}), ≤${maxRows} rows, ${tasks.length} long tasks (longest ${longest.toFixed(0)} ms${where ? `; ${where}` : ""}), ${scrolled}`);
  } finally {
    await browser.close();
  }
  return { errors };
}
