import { spawn } from "node:child_process";
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
