#!/usr/bin/env node
// Which code runs in the sidebar's long tasks while it scrolls to the end (workload 7's scroll):
// scrolls a page like bench/workloads/browser.mjs does, under the DevTools CPU profiler (200 µs
// samples), and for each long task prints when it came (screens scrolled, scrollTop and
// scrollHeight then) and the functions with the most samples in it, self and inclusive. Names
// are the production bundle's (minified), with the chunk file and column.
//
//   node bench/sidebar-probe.mjs --data=/tmp/sb10k --seed=10000     # seed once
//   DATA_DIR=<a copy of /tmp/sb10k> npx next start -H 127.0.0.1 -p 3993 &
//   node bench/scripts/longtask-profile.mjs http://127.0.0.1:3993/ [reps=3]
import { chromium } from "playwright";
const url = process.argv[2];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
for (let rep = 0; rep < Number(process.argv[3] ?? 3); rep++) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push({ at: e.startTime, ms: e.duration }); }).observe({ type: "longtask", buffered: true });
  });
  await page.goto(url);
  await page.waitForFunction(() => { const l = window.__longTasks.at(-1); return document.readyState === "complete" && performance.now() - (l ? l.at + l.ms : 0) > 1000; }, null, { polling: 200 });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  const t0 = await page.evaluate(() => performance.now());
  await cdp.send("Profiler.start");
  const scroller = page.getByTestId("thread-scroll");
  const oldest = page.getByTestId("thread-title").filter({ hasText: "Seeded 000000 " });
  const marks = [];
  for (let i = 0; i < 700; i++) {
    if (await oldest.isVisible()) break;
    marks.push(await scroller.evaluate((el) => { el.scrollBy(0, el.clientHeight); return [performance.now(), el.scrollTop, el.scrollHeight]; }));
    await page.waitForTimeout(50);
  }
  const { profile } = await cdp.send("Profiler.stop");
  const tasks = await page.evaluate((from) => window.__longTasks.filter((t) => t.at >= from), t0);
  console.log(`rep ${rep}: t0 ${Math.round(t0)}, ${marks.length} screens, ${tasks.length} long tasks ${JSON.stringify(tasks.map((t) => [Math.round(t.at), Math.round(t.ms), marks.filter((m) => m[0] <= t.at).length, marks.filter((m) => m[0] <= t.at).at(-1)?.slice(1)]))}`);
  // Profile times are µs from the profile's start, taken as page time t0: the profiler started one
  // DevTools round trip after t0 was read, so task windows may sit a few ms off.
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = profile.startTime;
  const samples = profile.samples.map((id, i) => ((t += profile.timeDeltas[i]), { id, t }));
  const base = profile.startTime;
  for (const task of tasks) {
    const from = (task.at - t0) * 1000 + base, to = from + task.ms * 1000;
    const self = new Map(), incl = new Map();
    for (const s of samples) {
      if (s.t < from || s.t > to) continue;
      const n = byId.get(s.id);
      const name = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`;
      self.set(name, (self.get(name) ?? 0) + 1);
      const seen = new Set();
      for (let id = s.id; id; id = parent.get(id)) {
        const m = byId.get(id); const nm = `${m.callFrame.functionName || "(anon)"} ${m.callFrame.url.split("/").pop()}:${m.callFrame.lineNumber}:${m.callFrame.columnNumber}`;
        if (seen.has(nm)) continue; seen.add(nm); incl.set(nm, (incl.get(nm) ?? 0) + 1);
      }
    }
    console.log(`  task at ${Math.round(task.at)} ${Math.round(task.ms)} ms; self top:`, [...self].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k}=${v}`).join(" | "));
    console.log(`    incl top:`, [...incl].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `${k}=${v}`).join(" | "));
  }
  await ctx.close();
}
await browser.close();
