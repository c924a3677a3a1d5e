import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// A bad setting stops the built server at start, naming the variable and its bounds.
test("the server refuses to start with an out-of-range TITLE_MAX_CHARS", async () => {
  const child = spawn("node_modules/.bin/next", ["start", "-p", String(Number(process.env.E2E_PORT ?? 3217) + 50)], {
    env: { ...process.env, TITLE_MAX_CHARS: "5", DATA_DIR: path.join(os.tmpdir(), `threadline-startup-${process.pid}`) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => (child.kill("SIGKILL"), resolve(null)), 30_000);
    child.on("exit", (c) => (clearTimeout(timer), resolve(c)));
  });
  expect(code).toBe(1);
  expect(output).toContain("TITLE_MAX_CHARS must be an integer between 10 and 200");
});

// One process per database, as a person would meet it: a second `next start` on the same data folder.
test("a second server started on the same data folder stops at start, saying why and what to do instead", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-second-"));
  const base = Number(process.env.E2E_PORT ?? 3217);
  const start = (port: number) => {
    const child = spawn("node_modules/.bin/next", ["start", "-H", "127.0.0.1", "-p", String(port)], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    return { child, output: () => output };
  };
  const first = start(base + 81);
  try {
    // The first holds the lock once its database is open: it answers then.
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${base + 81}/api/langgraph/info`).catch(() => null))?.status ?? 0, { timeout: 30_000 })
      .toBe(200);
    const second = start(base + 82);
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => (second.child.kill("SIGKILL"), resolve(null)), 30_000);
      second.child.on("exit", (c) => (clearTimeout(timer), resolve(c)));
    });
    expect(code).toBe(1);
    expect(second.output()).toMatch(/Threadline cannot start: .*threadline\.sqlite is already served by another Threadline process \(pid \d+/);
    expect(second.output()).toContain("LANGGRAPH_API_URL");
    // The first is unharmed.
    expect((await fetch(`http://127.0.0.1:${base + 81}/api/langgraph/info`)).status).toBe(200);
  } finally {
    if (first.child.exitCode === null) {
      first.child.kill("SIGTERM");
      await new Promise((r) => first.child.once("exit", r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
