import { defineConfig, devices } from "@playwright/test";
import os from "node:os";
import path from "node:path";
import { nextStartServer } from "./e2e/next-server";

/**
 * E2E against a production build (`next build`, then `next start`), the real API and the offline
 * model streaming slowly enough to watch. A fresh DATA_DIR per run (the server: e2e/next-server.ts).
 */
const PORT = Number(process.env.E2E_PORT ?? 3217);
// Computed once in the runner; workers inherit it through the environment.
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `threadline-e2e-${process.pid}-${Date.now()}`);
process.env.E2E_BASE_URL ??= `http://127.0.0.1:${PORT}`;
const TOKEN_DELAY_MS = process.env.E2E_TOKEN_DELAY_MS ?? "90";

const chromiumArgs = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "e2e",
  // e2e/langgraph/ runs only under playwright.langgraph.config.ts (the app in front of langgraph dev),
  // e2e/postgres/ only under playwright.postgres.config.ts (DATABASE_URL).
  testIgnore: ["langgraph/**", "postgres/**"],
  // Separate folders let two runs (e.g. two helpers) share a checkout without deleting each other's artifacts.
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } }],
  webServer: nextStartServer(PORT, process.env.E2E_BASE_URL, {
    DATA_DIR: process.env.E2E_DATA_DIR,
    OFFLINE_MODEL_DELAY_MS: TOKEN_DELAY_MS,
    // e2e/api/cross-site.spec.ts: http://localhost:PORT is a listed origin, http://127.0.0.1:PORT is not.
    THREADLINE_CORS_ORIGINS: `http://localhost:${PORT}`,
  }),
});
