#!/usr/bin/env node
// Where the sidebar's "first row visible" time goes (bench/changes/h-firstrow.md). Several builds
// (and optionally a no-JavaScript control) side by side on one seeded DATA_DIR, visits interleaved
// (build A, build B, …, A, B, …) so a shared machine's load falls on all of them alike:
//
//   node bench/sidebar-probe.mjs --data=/tmp/sb10k --seed=10000        # seed once
//   node bench/firstrow-probe.mjs --data=/tmp/sb10k --dist=.next-before,.next --visits=20 --control
//   node bench/firstrow-probe.mjs --urls=base=http://127.0.0.1:3917/,css=http://127.0.0.1:3920/
//   node bench/firstrow-probe.mjs --data=/tmp/sb10k --dist=.next --visits=3 --trace=/tmp/fr-traces
//
// Each visit is the measurement of bench/workloads/browser.mjs (a fresh context, `goto` until
// commit, then Playwright's `waitForFunction` polls until the first row has a box), plus:
//   check  when that predicate last ran (a `querySelector` hook): the row is usually in the DOM
//          well before; a late check means the harness's CDP call reached the page late
//   rowPaint  Element Timing's renderTime of the first row (set as the parser inserts it): when
//          the row was painted, whenever the harness looked
//   fcp    first-contentful-paint, load = loadEventStart
//   composer  when the composer took input (live and its draft restored: data-draft-restored), so
//          that a page that paints sooner by loading its chat later shows what that costs
//   and the way there, from Navigation and Resource Timing: the HTML's first and last byte, the
//          stylesheet asked for and in, domInteractive (the parser done): what comes before a paint
// --control adds "<first dist> without JS": the same server's HTML with its <script src> tags
// removed, served from here (its /_next/ files proxied), to show what the scripts cost.
// --minimal adds "one-row page": a page of one row and nothing else, served from here: what this
// browser on this machine takes to show any row, the floor under every other line (Element
// Timing gives it no rowPaint; its row is its only content, so its fcp is that paint).
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright";
import { freePort, root, waitUntilUp } from "./lib/targets.mjs";
import { firstRowSeen, recordFirstRowPaint } from "./workloads/browser.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const dataDir = path.resolve(arg("data", "/tmp/threadline-sidebar-probe"));
const dists = arg("dist", "").split(",").filter(Boolean);
// Servers already running (e.g. a build started with other env): `--urls=name=http://…/,…`.
const urls = arg("urls", "").split(",").filter(Boolean).map((u) => (u.includes("=") ? u.split("=") : [u, u]));
const visits = Number(arg("visits", "15"));
const control = process.argv.includes("--control");
const minimal = process.argv.includes("--minimal");
const ONE_ROW = '<!doctype html><html><head><meta charset="utf-8"><title>One row</title></head><body><nav><a data-testid="thread-row" href="#"><bdi data-testid="thread-title">Question t000001 about sourdough baking</bdi></a></nav></body></html>';
// --trace=DIR (tracing slows the page: take figures without it): a Chromium trace of every visit (DIR/<n>-<visit>.json), for the main thread's tasks,
// the font lookups in the first layout (FontDataService::MatchFamilyName) and the DevTools messages.
const traceDir = arg("trace", "");
const TRACE_CATEGORIES = ["blink.user_timing", "navigation", "devtools.timeline", "disabled-by-default-devtools.timeline", "loading", "blink", "v8", "v8.execute", "toplevel", "fonts", "mojom"];
const ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

const servers = [];
const targets = [];
try {
  for (const dist of dists) {
    // One process serves one database (its lock file): each build reads its own copy of the data.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "firstrow-"));
    for (const f of fs.readdirSync(dataDir)) if (!f.endsWith(".lock")) fs.copyFileSync(path.join(dataDir, f), path.join(copy, f));
    const port = await freePort();
    const proc = spawn(path.join(root, "node_modules/.bin/next"), ["start", "-H", "127.0.0.1", "-p", String(port)], {
      cwd: root,
      env: { ...process.env, NEXT_DIST_DIR: dist, DATA_DIR: copy, NEXT_TELEMETRY_DISABLED: "1", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", THREADLINE_AUTH: "local" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    servers.push({ proc, copy });
    const url = `http://127.0.0.1:${port}/`;
    await waitUntilUp(proc, url, () => `${dist}: its stderr is above (its stdout is not kept)`, 60_000);
    targets.push({ name: dist, url });
  }
  for (const [name, url] of urls) targets.push({ name, url: url.endsWith("/") ? url : `${url}/` });
  if (control && !targets.length) throw new Error("--control needs a build or a server to strip: --dist=… or --urls=…");
  if (control) {
    const upstream = targets[0].url.slice(0, -1);
    const port = await freePort();
    const proxy = http.createServer(async (req, res) => {
      const r = await fetch(upstream + req.url, { headers: { "accept-encoding": "identity" } });
      let body = Buffer.from(await r.arrayBuffer());
      if (req.url === "/") {
        body = Buffer.from(
          body
            .toString("utf8")
            .replace(/<script src="[^"]*"[^>]*><\/script>/g, "")
            .replace(/<link rel="preload" as="script"[^>]*\/>/g, ""),
        );
      }
      res.writeHead(r.status, { "content-type": r.headers.get("content-type") ?? "application/octet-stream" });
      res.end(body);
    });
    await new Promise((ok) => proxy.listen(port, "127.0.0.1", ok));
    servers.push({ proxy });
    targets.push({ name: `${targets[0].name} without JS`, url: `http://127.0.0.1:${port}/`, inert: true });
  }
  if (minimal) {
    const port = await freePort();
    const page = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(ONE_ROW);
    });
    await new Promise((ok) => page.listen(port, "127.0.0.1", ok));
    servers.push({ proxy: page });
    targets.push({ name: "one-row page", url: `http://127.0.0.1:${port}/`, inert: true });
  }

  if (!targets.length) throw new Error("nothing to measure: --dist=…, --urls=… and/or --minimal");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ARGS });
  try {
    for (const t of targets) {
      const warm = await browser.newPage();
      await warm.goto(t.url);
      await warm.getByTestId("thread-row").first().waitFor();
      await warm.close();
      t.runs = [];
    }
    for (let i = 0; i < visits; i++) {
      for (const t of targets) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.addInitScript(recordFirstRowPaint);
        await page.addInitScript(() => {
          window.__composerLive = new Promise((done) => {
            const live = () => document.querySelector('[data-testid="composer-input"][data-draft-restored]');
            const watch = new MutationObserver(() => live() && (watch.disconnect(), done(performance.now())));
            watch.observe(document, { subtree: true, childList: true, attributes: true });
          });
        });
        await page.addInitScript(() => {
          const query = Document.prototype.querySelector;
          Document.prototype.querySelector = function (selector) {
            if (String(selector).includes("thread-row")) window.__rowCheckAt = performance.now();
            return query.call(this, selector);
          };
        });
        if (traceDir) {
          fs.mkdirSync(traceDir, { recursive: true });
          await browser.startTracing(page, { path: path.join(traceDir, `${targets.indexOf(t)}-${i}.json`), categories: TRACE_CATEGORIES });
        }
        await page.goto(t.url, { waitUntil: "commit" });
        const visible = await firstRowSeen(page);
        await page.waitForLoadState("load");
        const r = await page.evaluate(async (inert) => {
          // The paint entry is queued after the frame is presented, which can be after `load`.
          const fcp = await new Promise((done) => {
            new PerformanceObserver((list) => {
              const e = list.getEntriesByName("first-contentful-paint")[0];
              if (e) done(e.startTime);
            }).observe({ type: "paint", buffered: true });
            setTimeout(() => done(NaN), 3000);
          });
          // A page without scripts (the control, the one-row page) never takes input.
          const composer = inert ? NaN : await Promise.race([window.__composerLive, new Promise((done) => setTimeout(() => done(NaN), 10_000))]);
          const nav = performance.getEntriesByType("navigation")[0];
          // Only stylesheets that hold the first paint back (Chromium's renderBlockingStatus), not a
          // later or preloaded one.
          const css = performance
            .getEntriesByType("resource")
            .filter((e) => e.initiatorType === "link" && e.name.endsWith(".css") && e.renderBlockingStatus !== "non-blocking");
          return {
            check: window.__rowCheckAt,
            rowPaint: await window.__rowPaint,
            fcp,
            load: nav.loadEventStart,
            composer,
            html: nav.responseStart,
            htmlEnd: nav.responseEnd,
            // The render-blocking stylesheet: asked for, and in (NaN on a page without one).
            cssAsked: css.length ? Math.min(...css.map((e) => e.startTime)) : NaN,
            cssIn: css.length ? Math.max(...css.map((e) => e.responseEnd)) : NaN,
            parsed: nav.domInteractive,
          };
        }, Boolean(t.inert));
        if (traceDir) await browser.stopTracing();
        t.runs.push({ visible, ...r });
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  const med = (a) => [...a].sort((x, y) => x - y)[Math.floor((a.length - 1) / 2)];
  const fmt = (runs, k) => {
    // NaN: not measured on that visit (a page without scripts, or a composer that never took input within 10 s).
    const v = runs.map((r) => r[k]).filter((x) => !Number.isNaN(x));
    if (!v.length) return `${k} —`;
    if (v.length < runs.length) k = `${k} (${v.length} of ${runs.length})`;
    return `${k} ${Math.round(med(v))} (${Math.round(Math.min(...v))}–${Math.round(Math.max(...v))})`;
  };
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; ${visits} interleaved visits each; ms after navigation start, median (min–max)`);
  for (const t of targets) console.log(`${t.name.padEnd(24)} ${["visible", "check", "rowPaint", "fcp", "load", "composer"].map((k) => fmt(t.runs, k)).join(" | ")}`);
  console.log("the way there (Navigation and Resource Timing): html = its first byte, htmlEnd = its last, css = the stylesheet asked for / in, parsed = domInteractive");
  for (const t of targets) console.log(`${t.name.padEnd(24)} ${["html", "htmlEnd", "cssAsked", "cssIn", "parsed", "fcp"].map((k) => fmt(t.runs, k)).join(" | ")}`);
} finally {
  for (const s of servers) {
    s.proxy?.close();
    if (!s.proc) continue;
    const exited = s.proc.exitCode === null ? new Promise((done) => s.proc.once("exit", done)) : null;
    s.proc.kill("SIGTERM");
    await exited;
    fs.rmSync(s.copy, { recursive: true, force: true });
  }
}
