import { defineConfig } from "@playwright/test";
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import base from "./playwright.config";
import { nextStartServer } from "./e2e/next-server";

/**
 * The core title scenarios against the built app on Postgres: `next start` with DATABASE_URL
 * pointing at a fresh database on the TEST_DATABASE_URL server (`npm test` starts one). Same specs and
 * page objects as playwright.config.ts, plus e2e/postgres/ (the rows really are in Postgres; a
 * second server on the same database stops at start).
 * Port: E2E_PORT+80 (and +86 for that second server), clear of the main run's offsets (+50..+60,
 * +81/+82) and the LangGraph run's (+70..+73).
 */
const TEST_PG = process.env.TEST_DATABASE_URL?.trim();
if (!TEST_PG) throw new Error("playwright.postgres.config.ts needs TEST_DATABASE_URL=postgres://…/postgres (a throwaway server: it creates a database there)");
const E2E_PORT = Number(process.env.E2E_PORT ?? 3217);
const APP_PORT = E2E_PORT + 80;
const TOKEN_DELAY_MS = process.env.E2E_TOKEN_DELAY_MS ?? "90";
const DB_PREFIX = "tl_e2e_pg_";

function psql(sqlText: string): string {
  const r = spawnSync("psql", [TEST_PG!, "-v", "ON_ERROR_STOP=1", "-qAtc", sqlText], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr || r.error?.message}`);
  return r.stdout.trim();
}

// Computed once in the runner; workers inherit them through the environment (and must not create
// a second database).
if (!process.env.PG_E2E_DATABASE_URL) {
  const started = Date.now();
  // A fresh database per run, not a shared or reused one: the app holds a one-process advisory
  // lock per database (a second run on it would stop at start), the specs read the whole list
  // (order, search, the row count in e2e/postgres/), and the migrations then run from an empty
  // schema as on a first deployment.
  const name = `${DB_PREFIX}${process.pid}_${started}`;
  // The server is still connected when Playwright's teardown runs, so a run cannot drop its own
  // database; each run drops earlier runs' ones instead, if more than an hour old and idle
  // (without FORCE, a database someone is still connected to is left alone).
  for (const old of psql(`SELECT datname FROM pg_database WHERE datname LIKE '${DB_PREFIX}%'`).split("\n").filter(Boolean)) {
    const at = Number(old.split("_").pop());
    if (Number.isFinite(at) && started - at > 3_600_000) spawnSync("psql", [TEST_PG, "-qAtc", `DROP DATABASE IF EXISTS ${old}`]);
  }
  psql(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_PG);
  url.pathname = `/${name}`;
  process.env.PG_E2E_DATABASE_URL = url.toString();
  process.env.PG_E2E_DATA_DIR = path.join(os.tmpdir(), `threadline-pg-e2e-${process.pid}-${started}`);
}
process.env.E2E_BASE_URL = `http://127.0.0.1:${APP_PORT}`;

export default defineConfig({
  ...base,
  testDir: "e2e",
  testIgnore: [],
  // One worker, as in the main run: 14-activity-order reads which row is on top, which a spec
  // creating threads beside it could change (two workers passed twice here, but one is certain).
  workers: 1,
  projects: [
    {
      ...base.projects![0],
      // Title search on Postgres is checked in e2e/postgres/ through the sidebar; 07-long-list
      // (which also searches) passes here too but seeds 1,000 threads, 1.7 min of this run, so it
      // stays in the main run only.
      testMatch: [
        "01-first-message.spec.ts",
        "02-rename.spec.ts",
        "03-rename-while-streaming.spec.ts",
        "05-two-tabs.spec.ts",
        "09-regenerate.spec.ts",
        "11-title-history.spec.ts",
        "14-activity-order.spec.ts",
      ],
    },
    // After the others (rows-in-postgres compares the whole list with the database's rows, which a
    // spec running beside it would change between the two reads).
    { ...base.projects![0], name: "chromium-postgres-only", testMatch: ["postgres/*.spec.ts"], dependencies: [base.projects![0].name!] },
  ],
  outputDir: process.env.E2E_OUTPUT_DIR ? `${process.env.E2E_OUTPUT_DIR}-postgres` : "test-results/e2e-postgres",
  use: { ...base.use, baseURL: process.env.E2E_BASE_URL },
  webServer: nextStartServer(APP_PORT, process.env.E2E_BASE_URL, {
    LANGSMITH_TRACING: "",
    OFFLINE_MODEL_DELAY_MS: TOKEN_DELAY_MS,
    THREADLINE_AUTH: "local",
    // Never an external server here, whatever the caller's environment says.
    LANGGRAPH_API_URL: "",
    DATABASE_URL: process.env.PG_E2E_DATABASE_URL,
    // Postgres keeps every thread; this folder must stay free of a threads file (e2e/postgres/).
    DATA_DIR: process.env.PG_E2E_DATA_DIR,
  }),
});
