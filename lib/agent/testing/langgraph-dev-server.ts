import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

/**
 * Test-only: this repo's langgraph.json served by `langgraphjs dev` on a free loopback port, with
 * the offline model and no tracing. Tests run the same graph (and auth file) there as in our API.
 */
export interface LanggraphDevServer {
  apiUrl: string;
  log(): string;
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function waitForInfo(server: ChildProcess, url: string, log: () => string, deadline: number) {
  while (Date.now() < deadline) {
    if (server.exitCode != null) throw new Error(`langgraph dev exited early:\n${log()}`);
    try {
      if ((await fetch(`${url}/info`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`langgraph dev did not start in time:\n${log()}`);
}

export async function startLanggraphDev(env: Record<string, string> = {}, startMs = 90_000): Promise<LanggraphDevServer> {
  const port = await freePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  let output = "";
  const server = spawn("node_modules/.bin/langgraphjs", ["dev", "--no-browser", "--port", String(port), "--host", "127.0.0.1"], {
    env: { ...process.env, OFFLINE_MODEL_DELAY_MS: "0", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", LANGSMITH_TRACING: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout?.on("data", (d) => (output += d));
  server.stderr?.on("data", (d) => (output += d));
  const stop = () => {
    if (server.pid && server.exitCode == null) process.kill(-server.pid, "SIGTERM");
  };
  try {
    await waitForInfo(server, apiUrl, () => output, Date.now() + startMs);
  } catch (err) {
    stop();
    throw err;
  }
  return { apiUrl, log: () => output, stop };
}
