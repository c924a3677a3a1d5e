import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { fallbackTitle } from "@/lib/title";

// The same graph (langgraph.json → lib/agent/graph.ts) served by `langgraph dev` instead of our
// Next.js API: titles must work there too, with the pin read from state (no registry).
let server: ChildProcess | undefined;
let apiUrl = "";
let log = "";

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

async function waitForInfo(url: string, deadline: number) {
  while (Date.now() < deadline) {
    if (server?.exitCode != null) throw new Error(`langgraph dev exited early:\n${log}`);
    try {
      if ((await fetch(`${url}/info`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`langgraph dev did not start in time:\n${log}`);
}

beforeAll(async () => {
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  server = spawn("node_modules/.bin/langgraphjs", ["dev", "--no-browser", "--port", String(port), "--host", "127.0.0.1"], {
    env: { ...process.env, OFFLINE_MODEL_DELAY_MS: "0", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", LANGSMITH_TRACING: "" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout?.on("data", (d) => (log += d));
  server.stderr?.on("data", (d) => (log += d));
  await waitForInfo(apiUrl, Date.now() + 90_000);
}, 100_000);

afterAll(() => {
  if (server?.pid && server.exitCode == null) process.kill(-server.pid, "SIGTERM");
});

describe("the agent served by langgraph dev", () => {
  it("titles the first exchange and keeps a pinned title in state", async () => {
    const sdk = new Client({ apiUrl, callerOptions: { maxRetries: 0 } });
    const thread = await sdk.threads.create();
    const text = "Plan a weekend in Porto with good food";
    const first = (await sdk.runs.wait(thread.thread_id, "agent", {
      input: { messages: [{ type: "human", content: text }] },
    })) as { title: string; title_source: unknown };
    expect(first.title).toBe(fallbackTitle(text));
    expect(first.title_source).toEqual({ kind: "fallback" });

    await sdk.threads.updateState(thread.thread_id, { values: { title: "Porto ideas", title_source: { kind: "user" } } });
    const second = (await sdk.runs.wait(thread.thread_id, "agent", {
      input: { messages: [{ type: "human", content: "And where to stay?" }] },
    })) as { title: string; title_source: unknown };
    expect(second.title).toBe("Porto ideas");
    expect(second.title_source).toEqual({ kind: "user" });
  }, 60_000);
});
