#!/usr/bin/env node
// What the main thread spends while the sidebar scrolls: scrolls one screen at a time for
// `screens` steps (120 ms apart) under a Chromium trace, then prints the main thread's task
// count, total and longest tasks, and the time per trace event name (JS, style, layout, paint).
// THROTTLE=4 slows the CPU fourfold (DevTools emulation) to make small costs stand out.
//
//   node bench/sidebar-probe.mjs --data=/tmp/sb10k --seed=10000     # seed once
//   DATA_DIR=<a copy of /tmp/sb10k> npx next start -H 127.0.0.1 -p 3993 &
//   node bench/scripts/scroll-trace.mjs http://127.0.0.1:3993/ [screens=60]
import { chromium } from "playwright";

const url = process.argv[2];
const screens = Number(process.argv[3] ?? 60);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await ctx.newPage();
const cdp = await ctx.newCDPSession(page);
const rate = Number(process.env.THROTTLE ?? 1);
if (rate > 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate });
await page.goto(url);
await page.getByTestId("thread-title").first().waitFor();
await page.waitForTimeout(3000); // past hydration and the first page's effects
const scroller = page.getByTestId("thread-scroll");
await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
for (let i = 0; i < screens; i++) {
  await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight));
  await page.waitForTimeout(120);
}
const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
const complete = traceEvents.filter((e) => e.ph === "X" && e.dur);
// The renderer's main thread is the one with the most task time.
const perThread = new Map();
for (const e of complete) if (e.name === "RunTask") perThread.set(e.tid, (perThread.get(e.tid) ?? 0) + e.dur);
const main = [...perThread].sort((a, b) => b[1] - a[1])[0][0];
const tasks = complete.filter((e) => e.tid === main && e.name === "RunTask").map((e) => e.dur / 1000).sort((a, b) => b - a);
const byName = new Map();
for (const e of complete) if (e.tid === main) byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
const total = tasks.reduce((a, b) => a + b, 0);
console.log(`${screens} screens: ${tasks.length} main-thread tasks, ${total.toFixed(0)} ms in all (${(total / screens).toFixed(1)} ms a screen); longest ${tasks.slice(0, 8).map((d) => d.toFixed(0)).join(", ")} ms; over 50 ms: ${tasks.filter((d) => d > 50).length}`);
for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(1, 12)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
await browser.close();
