#!/usr/bin/env node
// The one test command (`npm test`): lint, typecheck, unit+integration, build, bench --quick, e2e.
// Prints a single plain summary line summed over Vitest and Playwright, because CI reads
// neither runner's own summary; zero tests run counts as a failure.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startThrowawayPostgres } from "./throwaway-postgres.mjs";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const out = path.join(root, "test-results");
fs.mkdirSync(out, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
delete env.LANGSMITH_TRACING;
delete env.LANGCHAIN_TRACING_V2;
// TEST_DATABASE_URL is for the Postgres passes only. Without it, a throwaway PostgreSQL is started
// when the machine has Debian's server installed (.ci/run installs it), so `npm test` runs every
// test wherever it can; `--no-postgres` skips those passes.
const noPostgresFlag = process.argv.includes("--no-postgres");
let testDatabaseUrl = noPostgresFlag ? undefined : env.TEST_DATABASE_URL;
delete env.TEST_DATABASE_URL;
let noPostgres = noPostgresFlag ? "--no-postgres" : "TEST_DATABASE_URL is not set";
let pgBroken = null;
if (!testDatabaseUrl && !noPostgresFlag) {
  const pg = await startThrowawayPostgres();
  testDatabaseUrl = pg.url ?? undefined;
  if (pg.url) console.log(`=== Postgres passes: ${pg.why}`);
  else noPostgres = pg.why;
  // Installed but not starting is a failure, not a skip (CI installs it: its passes must run).
  if (pg.broken) pgBroken = pg.why;
}

/** The API integration suites that run a second time against Postgres (each harness on its own database). */
const POSTGRES_SUITES = [
  "lib/server/store/threads.test.ts",
  "lib/server/store/title-search.test.ts",
  "lib/server/remote/title-scan.test.ts",
  "lib/server/store/list-order.test.ts",
  "lib/server/store/history-paging.test.ts",
  "lib/server/store/search-plan.test.ts",
  "lib/server/store/search-order.test.ts",
  "lib/server/store/starred-page.test.ts",
  "lib/server/store/schema-shape.test.ts",
  "lib/server/store/thread-json.test.ts",
  "lib/server/store/migration-upgrade.test.ts",
  "lib/server/store/search-index-upgrade.test.ts",
  "lib/server/store/activity-prune.test.ts",
  "lib/server/runs/runs.test.ts",
  "lib/server/runs/stop.test.ts",
  "lib/server/runs/retry.test.ts",
  "lib/server/runs/drift-reads.test.ts",
  "lib/server/runs/stream-fanout.test.ts",
  "lib/server/titles/attachments.test.ts",
  "lib/server/titles/title-restore.test.ts",
  "lib/server/http/errors.test.ts",
  "lib/server/auth/request-guard.test.ts",
  "lib/server/auth/sessions.test.ts",
  "lib/server/auth/key-settings.test.ts",
  "lib/server/auth/local-to-accounts.test.ts",
  "lib/agent/process-lock.test.ts",
  "lib/server/auth/accounts-host.test.ts",
  "lib/server/auth/isolation.test.ts",
  "lib/server/http/hardening.test.ts",
  "lib/server/titles/titles.test.ts",
  "lib/server/runs/interrupted-title.test.ts",
  "lib/server/titles/rename-race.test.ts",
  "lib/server/titles/model-titles.test.ts",
  "lib/server/runs/run-limits.test.ts",
  "lib/server/store/transactions.test.ts",
  "lib/server/runs/drift-repair.test.ts",
  "lib/server/http/fuzz.test.ts",
  "lib/client/rename-undo.test.ts",
  "lib/client/regenerate-title.test.ts",
  "lib/client/thread-pages.test.ts",
  "lib/client/standard-search.test.ts",
];
/** Suites that use the test harness but are SQLite's alone, and why. */
const SQLITE_ONLY_SUITES = {
  "lib/server/store/release-fixture.test.ts": "opens a SQLite file from an earlier release",
};

/** Test files that start the API harness and are in neither list: a new suite must choose. */
function unlistedHarnessSuites() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.test\.tsx?$/.test(entry.name) && fs.readFileSync(path.join(root, rel), "utf8").includes("createHarness(")) found.push(rel);
    }
  };
  for (const dir of ["lib", "app", "components"]) walk(dir);
  return found.filter((f) => !POSTGRES_SUITES.includes(f) && !(f in SQLITE_ONLY_SUITES));
}

// rename-race at its default 200 schedules took 172-199 s on Postgres here (100: 79 s): the
// Postgres pass runs 60 (each schedule also leaves a database on the throwaway server).
const POSTGRES_RENAME_RACE_SCHEDULES = "60";
// fuzz at its default 10,000 requests would take ~30 s on Postgres here (1,000: 3.3 s, 2,000: 6.3 s
// of test time, on a loaded machine): the Postgres pass sends 2,000; the SQLite pass keeps 10,000.
const POSTGRES_FUZZ_RUNS = "2000";

const skipE2E = process.argv.includes("--no-e2e");
const failures = [];

function step(name, cmd, args, extraEnv = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const ok = r.status === 0;
  console.log(`=== ${name}: ${ok ? "ok" : `FAILED (exit ${r.status ?? r.signal})`} in ${secs}s`);
  // Interrupted (Ctrl-C reaches the step too): stop here, not at the next step; the exit hook stops
  // a throwaway PostgreSQL.
  if (r.signal === "SIGINT" || r.signal === "SIGTERM" || r.signal === "SIGHUP") process.exit(128 + os.constants.signals[r.signal]);
  if (!ok) failures.push(name);
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const bin = (name) => path.join(root, "node_modules", ".bin", name);
const vitestJson = path.join(out, "vitest.json");
const vitestPgJson = path.join(out, "vitest-postgres.json");
fs.rmSync(vitestPgJson, { force: true });
const playwrightJson = path.join(out, "playwright.json");
// The core title scenarios again, with the app in front of `langgraph dev` (LANGGRAPH_API_URL).
const playwrightLanggraphJson = path.join(out, "playwright-langgraph.json");
// The core title scenarios again, with `next start` on a fresh Postgres database (DATABASE_URL).
const playwrightPgJson = path.join(out, "playwright-postgres.json");
fs.rmSync(vitestJson, { force: true });
fs.rmSync(playwrightJson, { force: true });
fs.rmSync(playwrightLanggraphJson, { force: true });
fs.rmSync(playwrightPgJson, { force: true });

const unlisted = unlistedHarnessSuites();
if (unlisted.length) {
  console.log(`\n=== suites that start the API harness but are in neither POSTGRES_SUITES nor SQLITE_ONLY_SUITES (.ci/test-all.mjs):\n${unlisted.map((f) => `  ${f}`).join("\n")}`);
  failures.push("Postgres suite list");
}
if (pgBroken) {
  console.log(`\n=== Postgres: FAILED to start (${pgBroken})`);
  failures.push("throwaway PostgreSQL");
}
step("lint", bin("eslint"), [".", "--max-warnings=0"]);
step("typecheck", bin("tsc"), ["--noEmit"]);
step("unit+integration", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
if (testDatabaseUrl) {
  // Postgres round trips are slower than an SQLite file on this machine: a longer per-test bound.
  step("integration on Postgres", bin("vitest"), ["run", "--testTimeout=120000", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestPgJson}`, ...POSTGRES_SUITES], {
    TEST_DATABASE_URL: testDatabaseUrl,
    RENAME_RACE_SCHEDULES: POSTGRES_RENAME_RACE_SCHEDULES,
    FUZZ_RUNS: POSTGRES_FUZZ_RUNS,
  });
} else {
  console.log(`\n=== integration on Postgres: skipped (${noPostgres})`);
}
if (!skipE2E) {
  if (step("build", bin("next"), ["build"])) {
    // The side-by-side bench, small: fails on a workload error, never on a slow figure.
    // With a Postgres server, the store's reads are timed on it too (a database of their own).
    step("bench --quick", process.execPath, ["bench/run.mjs", "--quick"], testDatabaseUrl ? { BENCH_DATABASE_URL: testDatabaseUrl } : {});
    step("e2e", bin("playwright"), ["test"], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson });
    step("e2e (LangGraph server)", bin("playwright"), ["test", "-c", "playwright.langgraph.config.ts"], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightLanggraphJson,
    });
    if (testDatabaseUrl) {
      // The config creates its database on this server and gives its URL to `next start` only.
      step("e2e (Postgres)", bin("playwright"), ["test", "-c", "playwright.postgres.config.ts"], {
        TEST_DATABASE_URL: testDatabaseUrl,
        PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightPgJson,
      });
    } else {
      console.log(`\n=== e2e (Postgres): skipped (${noPostgres})`);
    }
  } else {
    failures.push("e2e (not run: build failed)");
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
// Each failed test by name with the start of its error, so the end of the log says which one failed.
const failedTests = [];
const firstLines = (text) => String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").slice(0, 3).join(" | ").slice(0, 400);
for (const [file, required] of [[vitestJson, true], [vitestPgJson, Boolean(testDatabaseUrl)]]) {
  const v = readJson(file);
  if (v) {
    for (const suite of v.testResults ?? []) {
      for (const t of suite.assertionResults ?? []) {
        if (t.status === "failed") failedTests.push(`${path.basename(file)}: ${path.relative(root, suite.name)} › ${t.fullName}: ${firstLines(t.failureMessages?.[0])}`);
      }
    }
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  } else if (required) {
    failures.push(`vitest report missing (${path.basename(file)})`);
  }
}
const playwrightReports = [[playwrightJson, true], [playwrightLanggraphJson, true], [playwrightPgJson, Boolean(testDatabaseUrl)]];
for (const [file, required] of skipE2E ? [] : playwrightReports) {
  const p = readJson(file);
  const walk = (suite, where) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        for (const r of t.results ?? []) {
          if (r.status !== "passed" && r.status !== "skipped") failedTests.push(`${path.basename(file)}: ${where} › ${spec.title} (try ${r.retry + 1}, ${r.status}): ${firstLines(r.error?.message)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, where || child.file || child.title);
  };
  for (const suite of p?.suites ?? []) walk(suite, suite.file ?? suite.title);
  if (p?.stats) {
    passed += (p.stats.expected ?? 0) + (p.stats.flaky ?? 0);
    failed += p.stats.unexpected ?? 0;
    skipped += p.stats.skipped ?? 0;
  } else if (required) {
    failures.push(`playwright report missing (${path.basename(file)})`);
  }
}

if (passed + failed === 0) failures.push("no tests ran");
if (failedTests.length) console.log(`\nFailed tests (retries included):\n${failedTests.map((t) => `- ${t}`).join("\n")}`);
if (failures.length) console.log(`\nFailed steps: ${failures.join(", ")}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failures.length || failed ? 1 : 0);
