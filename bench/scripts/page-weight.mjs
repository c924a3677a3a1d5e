#!/usr/bin/env node
// What the browser downloads for the web app's first page (`/`): per resource type, the count,
// the bytes on the wire and the bytes decoded, from Chromium's network events over one visit of
// a fresh `next start` (empty DATA_DIR: the scripts and styles do not depend on the data); and,
// of those, what was asked for before the page's `load` event (what the first load waits for)
// and after it (loaded later, e.g. when idle).
//
//   node bench/scripts/page-weight.mjs
//
// Needs a build (`npx next build`).
import { chromium } from "playwright";
import { ensureBuild, startTarget } from "../lib/targets.mjs";
import { ARGS } from "../workloads/browser.mjs";

ensureBuild();
const tl = await startTarget("threadline");
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ARGS });
try {
  const page = await browser.newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const kinds = new Map();
  const wire = new Map();
  const decoded = new Map();
  await cdp.send("Page.enable");
  let loaded = false;
  const afterLoad = new Set();
  cdp.on("Page.loadEventFired", () => (loaded = true));
  cdp.on("Network.requestWillBeSent", (e) => loaded && afterLoad.add(e.requestId));
  cdp.on("Network.responseReceived", (e) => kinds.set(e.requestId, e.type));
  cdp.on("Network.dataReceived", (e) => decoded.set(e.requestId, (decoded.get(e.requestId) ?? 0) + e.dataLength));
  cdp.on("Network.loadingFinished", (e) => wire.set(e.requestId, e.encodedDataLength));
  await page.goto(`${tl.baseUrl}/`, { waitUntil: "networkidle" });
  const byKind = {};
  for (const [id, type] of kinds) {
    const kind = `${type}${afterLoad.has(id) ? ", after load" : ""}`;
    byKind[kind] ??= { count: 0, wire: 0, decoded: 0 };
    byKind[kind].count++;
    byKind[kind].wire += wire.get(id) ?? 0;
    byKind[kind].decoded += decoded.get(id) ?? 0;
  }
  console.log("| type | count | bytes on the wire | bytes decoded |");
  console.log("|---|---|---|---|");
  for (const [kind, t] of Object.entries(byKind).sort(([a], [b]) => a.localeCompare(b))) console.log(`| ${kind} | ${t.count} | ${t.wire} | ${t.decoded} |`);
} finally {
  await browser.close();
  await tl.stop();
}
