import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "../lib/targets.mjs";

/**
 * The read side of the store on each database, side by side: bench/store-scale.ts (seeds N
 * threads through the store's own writes, then times the sidebar's page and title searches, as the
 * store query and through the API handler in-process with the SDK) on an SQLite file and, when
 * `pgUrl` is given, on a database of its own on that PostgreSQL server (made and dropped with
 * `psql`). Returns the figures per dialect, each dialect's status, and any error.
 */
export async function runStoreScale({ sizes, samples, pgUrl }) {
  const dialects = [["sqlite", null], ...(pgUrl ? [["postgres", pgUrl]] : [])];
  const results = {};
  const errors = [];
  const failed = new Set();
  for (const [dialect, url] of dialects) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "store-scale-"));
    const out = path.join(dir, "figures.json");
    const env = { ...process.env, SAMPLES: String(samples), STORE_SCALE_JSON: out };
    delete env.TEST_DATABASE_URL;
    if (url) env.TEST_DATABASE_URL = url;
    const started = Date.now();
    const failure = await new Promise((resolve) => {
      const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), ["bench/store-scale.ts", ...sizes.map(String)], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
      let stderr = "";
      const prefix = (d) => `  [${dialect}] ${d}`.replace(/\n(?=.)/g, `\n  [${dialect}] `);
      child.stdout.on("data", (d) => process.stdout.write(prefix(d)));
      child.stderr.on("data", (d) => {
        stderr = (stderr + d).slice(-20_000);
        process.stderr.write(prefix(d));
      });
      child.on("error", (err) => resolve(`could not start: ${err.message}`));
      child.on("close", (code) => {
        if (code === 0) return resolve(null);
        // The error's own line, not the stack frames under it.
        const why = stderr.split("\n").find((l) => /\b\w*Error\b|failed/.test(l)) ?? stderr.trim().split("\n").at(-1) ?? "";
        resolve(`exited ${code}: ${why.trim()}`);
      });
    });
    // What a failed run measured before failing still shows (store-scale writes after each N).
    let figures = null;
    try {
      figures = readFigures(out);
    } catch (err) {
      if (!failure) errors.push(`store-scale on ${dialect}: no figures (${err.message})`);
    }
    if (failure) {
      errors.push(`store-scale on ${dialect} ${failure}`);
      failed.add(dialect);
    }
    if (figures) results[dialect] = figures;
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(`  (store-scale on ${dialect} took ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  return { results, errors, status: storeStatus(pgUrl, results, failed) };
}

/** The figures store-scale wrote; throws when the file is missing, damaged or holds none. */
function readFigures(file) {
  const { figures } = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!Array.isArray(figures) || !figures.length) throw new Error("the file holds none");
  return figures;
}

/** What the report says of each database: run, failed part-way, failed, or (Postgres) not asked for. */
export function storeStatus(pgUrl, results, failed = new Set()) {
  const of = (dialect) => {
    if (!results[dialect]) return "failed (see Errors)";
    if (!failed.has(dialect)) return "run";
    return `failed after N=${[...new Set(results[dialect].map((f) => f.n))].join(", ")} (see Errors)`;
  };
  return { sqlite: of("sqlite"), postgres: pgUrl ? of("postgres") : "not run: set BENCH_DATABASE_URL=postgres://… (a server where it may create a database)" };
}
