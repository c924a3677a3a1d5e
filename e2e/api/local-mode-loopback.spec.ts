import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

// `local` mode has no sign-in, so the built server refuses to run where the network can reach it.
const port = Number(process.env.E2E_PORT ?? 3217) + 51;

function start(args: string[], env: Record<string, string>) {
  const child = spawn("node_modules/.bin/next", ["start", ...args, "-p", String(port)], {
    env: { ...process.env, ...env, DATA_DIR: path.join(os.tmpdir(), `threadline-loopback-${process.pid}`) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
  return { child, exited, output: () => output, stop: () => child.exitCode == null && child.pid && process.kill(-child.pid, "SIGTERM") };
}

test("local mode on every interface is refused, naming THREADLINE_AUTH=accounts", async () => {
  const server = start([], { THREADLINE_AUTH: "local" });
  try {
    const code = await Promise.race([server.exited, new Promise<string>((r) => setTimeout(() => r("still running"), 40_000))]);
    expect(code).toBe(1);
    expect(server.output()).toContain("use THREADLINE_AUTH=accounts");
  } finally {
    server.stop();
  }
});

test("local mode on 127.0.0.1 and accounts mode on every interface both start", async () => {
  for (const [args, env] of [[["-H", "127.0.0.1"], { THREADLINE_AUTH: "local" }], [[], { THREADLINE_AUTH: "accounts" }]] as const) {
    const server = start([...args], env);
    try {
      await expect
        .poll(async () => (await fetch(`http://127.0.0.1:${port}/api/langgraph/info`).catch(() => null))?.status ?? 0, { timeout: 30_000 })
        .toBe(200);
      // The start-up check runs after listening: give it time to (wrongly) stop the server.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(server.child.exitCode, server.output()).toBeNull();
    } finally {
      server.stop();
      await server.exited;
    }
  }
});
