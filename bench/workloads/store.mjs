import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "../lib/targets.mjs";

/**
 * The read side of the store on each database, side by side: bench/store-scale.ts (seeds N
 * threads through the store's own writes, then times the sidebar's page and title searches, as the
 * store query and through the API with the SDK) on an SQLite file and, when `pgUrl` is given, on
 * a database of its own on that PostgreSQL server. Returns the figures per dialect and any error.
 */
export async function runStoreScale({ sizes, samples, pgUrl }) {
  const dialects = [["sqlite", null], ...(pgUrl ? [["postgres", pgUrl]] : [])];
  const results = {};
  const errors = [];
  for (const [dialect, url] of dialects) {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "store-scale-")), "figures.json");
    const env = { ...process.env, SAMPLES: String(samples), STORE_SCALE_JSON: out };
    delete env.TEST_DATABASE_URL;
    if (url) env.TEST_DATABASE_URL = url;
    const started = Date.now();
    const code = await new Promise((resolve) => {
      const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["bench/store-scale.ts", ...sizes.map(String)], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
      let tail = "";
      const keep = (d) => (tail = (tail + d).slice(-2000));
      child.stdout.on("data", (d) => process.stdout.write(`  [${dialect}] ${d}`.replace(/\n(?=.)/g, `\n  [${dialect}] `)));
      child.stderr.on("data", keep);
      child.on("close", (c) => {
        if (c !== 0) errors.push(`store-scale on ${dialect} exited ${c}: ${tail.trim().split("\n").slice(-3).join(" | ")}`);
        resolve(c);
      });
    });
    if (code === 0) results[dialect] = JSON.parse(fs.readFileSync(out, "utf8")).figures;
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
    console.log(`  (store-scale on ${dialect} took ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  return { results, errors, postgres: pgUrl ? "run" : "not run: set BENCH_DATABASE_URL=postgres://… (a server where it may create a database)" };
}
