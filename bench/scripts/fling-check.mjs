#!/usr/bin/env node
// Whether the sidebar keeps rows on screen while flung: loads 30 screens of pages, goes back to
// the top, then scrolls `px` a frame for `frames` frames (requestAnimationFrame) and counts the
// frames where the screen's top, middle or bottom shows no row or heading. Three visits.
//
//   DATA_DIR=<a copy of /tmp/sb10k> npx next start -H 127.0.0.1 -p 3993 &
//   node bench/scripts/fling-check.mjs http://127.0.0.1:3993/ [px=400] [frames=120]
import { chromium } from "playwright";

const url = process.argv[2];
const step = Number(process.argv[3] ?? 400);
const frames = Number(process.argv[4] ?? 120);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
for (let visit = 0; visit < 3; visit++) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(url);
  await page.getByTestId("thread-title").first().waitFor();
  await page.waitForTimeout(2500);
  const scroller = page.getByTestId("thread-scroll");
  for (let i = 0; i < 30; i++) {
    await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight));
    await page.waitForTimeout(100);
  }
  await scroller.evaluate((el) => el.scrollTo(0, 0));
  await page.waitForTimeout(500);
  const r = await page.evaluate(
    ([step, frames]) =>
      new Promise((done) => {
        const el = document.querySelector('[data-testid="thread-scroll"]');
        const box = el.getBoundingClientRect();
        let n = 0, blank = 0, run = 0, longestRun = 0;
        const tick = () => {
          const ys = [box.top + 40, box.top + box.height / 2, box.bottom - 20];
          const missing = ys.some((y) => !document.elementFromPoint(box.left + 60, y)?.closest('[data-testid="thread-row"], h2'));
          if (missing) {
            blank++;
            longestRun = Math.max(longestRun, ++run);
          } else run = 0;
          if (++n >= frames) return done({ blank, longestRun, scrollTop: el.scrollTop });
          el.scrollBy(0, step);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    [step, frames],
  );
  console.log(`visit ${visit}: ${step} px a frame, ${frames} frames: rows missing in ${r.blank}, at most ${r.longestRun} in a row; ended at scrollTop ${Math.round(r.scrollTop)}`);
  await ctx.close();
}
await browser.close();
