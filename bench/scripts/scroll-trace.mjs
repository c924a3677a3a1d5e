#!/usr/bin/env node
// What the main thread spends while the sidebar scrolls: scrolls one screen at a time for
// `screens` steps (120 ms apart) under a Chromium trace, then prints the main thread's task
// count, total and longest tasks, and each trace event name's own time (JS, style, layout, paint);
// then the scroll events' handlers (the virtualiser's re-render: a screen of rows mounted) and
// the tasks that hold them, and the tasks begun by a timer (TanStack Query hands a fetched page
// to React from a timer, so a page of the list arriving is one of these). With `skip`, the first
// `skip` screens are scrolled untraced, 60 ms apart: `545 440` traces the end of 10,000 rows.
// THROTTLE=4 slows the CPU fourfold (DevTools emulation) to make small costs stand out.
//
//   node bench/sidebar-probe.mjs --data=/tmp/sb10k --seed=10000     # seed once
//   DATA_DIR=<a copy of /tmp/sb10k> npx next start -H 127.0.0.1 -p 3993 &
//   node bench/scripts/scroll-trace.mjs http://127.0.0.1:3993/ [screens=60] [skip=0]
import { chromium } from "playwright";
import { quantile } from "../lib/stats.mjs";

const url = process.argv[2];
const screens = Number(process.argv[3] ?? 60);
const skip = Number(process.argv[4] ?? 0);
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
for (let i = 0; i < skip; i++) {
  await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight));
  await page.waitForTimeout(60);
}
if (skip > 0) await page.waitForTimeout(1000);
await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
for (let i = skip; i < screens; i++) {
  await scroller.evaluate((el) => el.scrollBy(0, el.clientHeight));
  await page.waitForTimeout(120);
}
const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
// The trace covers every renderer: of the threads named CrRendererMain, the page's has the most task time.
const renderers = new Set(traceEvents.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => e.tid));
const taskTime = new Map();
for (const e of traceEvents) if (e.ph === "X" && e.name === "RunTask" && renderers.has(e.tid)) taskTime.set(e.tid, (taskTime.get(e.tid) ?? 0) + e.dur);
const main = [...taskTime].sort((a, b) => b[1] - a[1])[0]?.[0];
if (main === undefined) throw new Error("no renderer main thread in the trace");
// Complete events on that thread nest (a task holds an event dispatch, which holds a function
// call), so each name gets its own time without its children's.
const events = traceEvents.filter((e) => e.ph === "X" && e.dur && e.tid === main).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
const self = new Map();
const open = [];
for (const e of events) {
  while (open.length && open.at(-1).ts + open.at(-1).dur <= e.ts) open.pop();
  const parent = open.at(-1);
  if (parent) self.set(parent, self.get(parent) - e.dur);
  self.set(e, e.dur);
  open.push(e);
}
const byName = new Map();
for (const [e, us] of self) byName.set(e.name, (byName.get(e.name) ?? 0) + us / 1000);
const tasks = events.filter((e) => e.name === "RunTask").map((e) => e.dur / 1000).sort((a, b) => b - a);
const total = tasks.reduce((a, b) => a + b, 0);
const traced = screens - skip;
console.log(`${traced} screens${skip ? ` (after ${skip} untraced)` : ""}: ${tasks.length} main-thread tasks, ${total.toFixed(0)} ms in all (${(total / traced).toFixed(1)} ms a screen); longest ${tasks.slice(0, 8).map((d) => d.toFixed(0)).join(", ")} ms; over 50 ms: ${tasks.filter((d) => d > 50).length}`);
console.log("  own time by trace event (children not counted):");
for (const [name, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${name}`);
const ms = (list) => list.map((d) => d.toFixed(1)).join(", ");
const mean = (list) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : 0).toFixed(1);
// Nearest rank, the bench's own rule (the stop-25 medians in RESULTS.md took the upper of two middles).
const nth = (list, q) => (list.length ? quantile(list, q) : 0).toFixed(1);
const isScroll = (e) => e.name === "EventDispatch" && e.args?.data?.type === "scroll";
const handlers = events.filter(isScroll).map((e) => e.dur / 1000);
// In time order (a task before what it holds): each event's task is the last task begun before it.
const holding = new Set();
const beganWith = new Map();
let task = null;
for (const e of events) {
  if (e.name === "RunTask") task = e;
  else if (task && e.ts < task.ts + task.dur) {
    if (!beganWith.has(task)) beganWith.set(task, e.name);
    if (isScroll(e)) holding.add(task);
  }
}
const scrollTasks = [...holding].map((t) => t.dur / 1000);
console.log(`  scroll events: ${handlers.length}; handler mean ${mean(handlers)} ms, p90 ${nth(handlers, 0.9)}; the tasks holding them: mean ${mean(scrollTasks)} ms, p90 ${nth(scrollTasks, 0.9)}, longest ${ms(scrollTasks.sort((a, b) => b - a).slice(0, 3))}`);
const timerTasks = [...beganWith].filter(([, name]) => name === "TimerFire").map(([t]) => t.dur / 1000).filter((d) => d > 3).sort((a, b) => b - a);
console.log(`  tasks begun by a timer, over 3 ms: ${timerTasks.length}; median ${nth(timerTasks, 0.5)} ms, longest ${ms(timerTasks.slice(0, 5))}`);
await browser.close();
