import { defineConfig } from "@playwright/test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import base from "./playwright.config";
import { nextStartServer } from "./e2e/next-server";

/**
 * The core title scenarios with the web app in front of a LangGraph server: `langgraphjs dev`
 * serving this repo's langgraph.json (same graph, same auth file), then `next start` with
 * LANGGRAPH_API_URL pointing at it. Same specs and page objects as playwright.config.ts.
 * Ports: E2E_PORT+70 (langgraph dev) and E2E_PORT+71 (next), clear of the main run's offsets.
 */
const E2E_PORT = Number(process.env.E2E_PORT ?? 3217);
const LG_PORT = Number(process.env.LG_E2E_PORT ?? E2E_PORT + 70);
const APP_PORT = E2E_PORT + 71;
const TOKEN_DELAY_MS = process.env.E2E_TOKEN_DELAY_MS ?? "90";
// Computed once in the runner; workers inherit them through the environment.
const stamp = `${process.pid}-${Date.now()}`;
process.env.LG_E2E_DIR ??= path.join(os.tmpdir(), `threadline-lg-e2e-${stamp}`);
process.env.LG_E2E_DATA_DIR ??= path.join(os.tmpdir(), `threadline-lg-e2e-data-${stamp}`);
// The web server's DATA_DIR exists from the start, so no-key.spec.ts can look inside it.
fs.mkdirSync(path.join(process.env.LG_E2E_DATA_DIR, "web"), { recursive: true });
process.env.E2E_BASE_URL = `http://127.0.0.1:${APP_PORT}`;
// A key must reach the LangGraph server and never the browser (e2e/langgraph/no-key.spec.ts).
process.env.LG_E2E_KEY ??= "lsv2_pt_e2e_secret_key_must_not_leak_0000";

const env = process.env as Record<string, string>;
const common = { NEXT_TELEMETRY_DISABLED: "1", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", LANGSMITH_TRACING: "", OFFLINE_MODEL_DELAY_MS: TOKEN_DELAY_MS };

export default defineConfig({
  ...base,
  testDir: "e2e",
  testIgnore: [],
  testMatch: ["01-first-message.spec.ts", "02-rename.spec.ts", "03-rename-while-streaming.spec.ts", "05-two-tabs.spec.ts", "langgraph/*.spec.ts"],
  outputDir: process.env.E2E_OUTPUT_DIR ? `${process.env.E2E_OUTPUT_DIR}-langgraph` : "test-results/e2e-langgraph",
  use: { ...base.use, baseURL: process.env.E2E_BASE_URL },
  webServer: [
    {
      command: `node e2e/langgraph/langgraph-dev.mjs ${LG_PORT}`,
      url: `http://127.0.0.1:${LG_PORT}/info`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      // The graph runs here: the offline model, its own DATA_DIR (API keys, unused in local mode).
      env: { ...env, ...common, DATA_DIR: env.LG_E2E_DATA_DIR, THREADLINE_AUTH: "local" },
    },
    nextStartServer(APP_PORT, process.env.E2E_BASE_URL, {
      ...common,
      DATA_DIR: path.join(env.LG_E2E_DATA_DIR, "web"),
      THREADLINE_AUTH: "local",
      LANGGRAPH_API_URL: `http://127.0.0.1:${LG_PORT}`,
      LANGSMITH_API_KEY: env.LG_E2E_KEY,
    }),
  ],
});
