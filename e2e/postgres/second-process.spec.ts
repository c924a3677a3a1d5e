import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { spawnServer, type SpawnedServer } from "../spawned-server";

// Only under playwright.postgres.config.ts. One process per database on Postgres too, as a person
// would meet it: while this run's `next start` serves the database, a second one started on the
// same DATABASE_URL stops at start, saying why and what to do instead, and the first is unharmed.
const DATABASE_URL = process.env.PG_E2E_DATABASE_URL ?? "";
const FIRST = process.env.E2E_BASE_URL ?? "";
// E2E_PORT+86: clear of every run's ports (playwright.postgres.config.ts lists them).
const PORT = Number(process.env.E2E_PORT ?? 3217) + 86;

test("a second server started on the same Postgres database stops at start, and the first keeps serving", async () => {
  expect(DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
  expect(FIRST).toMatch(/^http:\/\//);
  expect((await fetch(`${FIRST}/api/langgraph/info`)).status).toBe(200);
  let dataDir: string | undefined;
  let second: SpawnedServer | undefined;
  try {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-pg-second-"));
    second = spawnServer("node_modules/.bin/next", ["start", "-H", "127.0.0.1", "-p", String(PORT)], { DATABASE_URL, DATA_DIR: dataDir, LANGGRAPH_API_URL: "", THREADLINE_AUTH: "local" });
    const code = await Promise.race([second.exited, new Promise((r) => setTimeout(() => r("still running after 30 s"), 30_000))]);
    expect(code, second.output()).toBe(1);
    const name = new URL(DATABASE_URL).pathname.slice(1);
    expect(second.output()).toContain(
      `Threadline cannot start: Postgres database "${name}" is already served by another Threadline process (it holds the advisory lock). ` +
        "The embedded server runs its runs in-process, so one process serves one database; for more than one process, " +
        "put the app in front of a LangGraph server (LANGGRAPH_API_URL, see the README).",
    );
    expect((await fetch(`${FIRST}/api/langgraph/info`)).status).toBe(200);
    expect((await fetch(`${FIRST}/api/langgraph/threads/search`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(200);
  } finally {
    if (second) {
      second.stop();
      await second.exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
