#!/usr/bin/env node
// The sidebar workload alone (bench/workloads/browser.mjs), repeated, against one production build
// and one seeded DATA_DIR, so two builds can be compared minutes apart on the same data:
//
//   node bench/sidebar-probe.mjs --data=/tmp/sb --seed=10000          # seed once (SDK, no runs)
//   NEXT_DIST_DIR=.next-before node bench/sidebar-probe.mjs --data=/tmp/sb --reps=3
//   node bench/sidebar-probe.mjs --data=/tmp/sb --reps=3              # the build in .next
//
// Seeded rows get a title through `threads.updateState` (as e2e/07-long-list.spec.ts does), so
// seeding 10k takes about a minute and needs no model.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { pool } from "./lib/stats.mjs";
import { freePort, root, waitUntilUp } from "./lib/targets.mjs";
import { runBrowser } from "./workloads/browser.mjs";

const arg = (name, dflt) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const dataDir = path.resolve(arg("data", "/tmp/threadline-sidebar-probe"));
const seedN = Number(arg("seed", "0"));
const reps = Number(arg("reps", "0"));
const capMs = Number(arg("cap", "90")) * 1000;
const port = Number(arg("port", "0")) || (await freePort());
const baseUrl = `http://127.0.0.1:${port}`;
const label = (i) => `Seeded ${String(i).padStart(6, "0")}`;

fs.mkdirSync(dataDir, { recursive: true });
const server = spawn(path.join(root, "node_modules/.bin/next"), ["start", "-H", "127.0.0.1", "-p", String(port)], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", THREADLINE_AUTH: "local" },
  stdio: ["ignore", "pipe", "pipe"],
});
let log = "";
server.stdout.on("data", (d) => (log += d));
server.stderr.on("data", (d) => (log += d));
try {
  await waitUntilUp(server, `${baseUrl}/api/langgraph/info`, () => log, 60_000);
  const client = new Client({ apiUrl: `${baseUrl}/api/langgraph`, callerOptions: { maxRetries: 0 } });
  if (seedN) {
    const t = Date.now();
    await pool(seedN, 8, async (i) => {
      const thread = await client.threads.create({ metadata: { seeded: true } });
      await client.threads.updateState(thread.thread_id, { values: { title: `${label(i)} notes about topic ${i % 37}` } });
    });
    console.log(`seeded ${seedN} in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  }
  const total = (await client.threads.count?.({})) ?? NaN;
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  for (let r = 0; r < reps; r++) {
    const values = {};
    const rec = { value: (key, _target, v, note) => (values[key] = note ? `${Math.round(v)} (${note})` : Math.round(v)) };
    const { errors } = await runBrowser({ baseUrl }, { total, oldestTitle: label(0), capMs }, rec);
    console.log(JSON.stringify({ dist, rep: r + 1, ...values, errors }));
  }
} finally {
  server.kill("SIGTERM");
}
