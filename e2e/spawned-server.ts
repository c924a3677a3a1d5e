import { spawn } from "node:child_process";

/** A server a spec starts itself (a mode or folders of its own), beside the config's webServer. */
export interface SpawnedServer {
  stop(): void;
  exited: Promise<unknown>;
  output(): string;
}

/**
 * `cmd args` in a process group of its own, so `stop` also ends what it started (next start's
 * worker, langgraph dev's child). No telemetry, no provider key or tracing from the environment,
 * and a fast offline model; `env` adds or overrides. Its output is kept for a spec to check.
 */
export function spawnServer(cmd: string, args: string[], env: Record<string, string>): SpawnedServer {
  const child = spawn(cmd, args, {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", LANGSMITH_TRACING: "", LANGSMITH_API_KEY: "", OFFLINE_MODEL_DELAY_MS: "5", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return { exited, output: () => output, stop: () => void (child.exitCode == null && child.pid && process.kill(-child.pid, "SIGTERM")) };
}
