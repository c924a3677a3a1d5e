import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "@langchain/langgraph-sdk";
import { fallbackTitle } from "@/lib/title";
import { resetStandardExtractSupport, standardExtractSupport } from "@/lib/client/standard-search";
import { FIRST_PAGE, fetchThreadPage, fetchThreadRowPage } from "@/lib/client/thread-pages";
import { startLanggraphDev, type LanggraphDevServer } from "@/lib/agent/testing/langgraph-dev-server";
import { guardConfigFromEnv } from "../auth/request-guard";
import { openRenameJournal } from "../store/rename-journal";
import { createForwarder, type Forwarder } from "./forward";
import { streamUntilTitled } from "./test-runs";

// The web app's forwarder (LANGGRAPH_API_URL mode) in front of `langgraph dev` serving this repo's
// langgraph.json: the official SDK talks to the forwarder exactly as the browser does, through
// `serve` (the network entry, with the Host checks), and every upstream request is recorded.
const KEY = "lsv2_pt_threadline_test_key_0123456789";
let server: LanggraphDevServer | undefined;
let fwd: Forwarder;
const upstreamCalls: { url: string; headers: Headers; signal?: AbortSignal | null }[] = [];
const browserSaw: string[] = [];

const ORIGIN = "http://127.0.0.1:4771";

/** What the browser gets: recorded (headers and, for non-streams, the body) to check no key leaks. */
async function viaForwarder(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init);
  const res = await fwd.serve(req);
  browserSaw.push([...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n"));
  if (res.headers.get("content-type")?.includes("text/event-stream") || !res.body) return res;
  const text = await res.text();
  browserSaw.push(text);
  return new Response(text, { status: res.status, headers: res.headers });
}

const sdk = () => new Client({ apiUrl: `${ORIGIN}/api/langgraph`, callerOptions: { maxRetries: 0, fetch: viaForwarder } });

beforeAll(async () => {
  server = await startLanggraphDev({ OFFLINE_MODEL_DELAY_MS: "40" });
  fwd = createForwarder(
    { apiUrl: server.apiUrl, apiKey: KEY, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 },
    {
      fetch: (input, init) => {
        upstreamCalls.push({ url: String(input), headers: new Headers(init?.headers), signal: init?.signal });
        return fetch(input, init);
      },
    },
  );
}, 100_000);

const webServers: number[] = [];
afterAll(() => {
  for (const pid of webServers) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  server?.stop();
});

describe("the forwarder in front of langgraph dev", () => {
  it("streams a run through unbuffered, with SSE headers and our own run location", async () => {
    const client = sdk();
    const thread = await client.threads.create();
    const text = "Plan a weekend in Porto with good food";
    const res = await viaForwarder(`${ORIGIN}/api/langgraph/threads/${thread.thread_id}/runs/stream`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Host: "127.0.0.1:4771" },
      body: JSON.stringify({ assistant_id: "agent", input: { messages: [{ type: "human", content: text }] }, stream_mode: ["values"], stream_resumable: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    expect(res.headers.get("content-location")).toMatch(new RegExp(`^/threads/${thread.thread_id}/runs/[0-9a-f-]+$`));
    // The first bytes arrive while the run is still going (the offline model streams slowly).
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: metadata");
    const run = await client.runs.get(thread.thread_id, res.headers.get("content-location")!.split("/").at(-1)!);
    expect(["pending", "running"]).toContain(run.status);
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toContain(JSON.stringify(fallbackTitle(text)));
    const state = await client.threads.getState<{ title: string }>(thread.thread_id);
    expect(state.values.title).toBe(fallbackTitle(text));
  }, 60_000);

  it("the sidebar's list: langgraph dev drops extract, so the page is asked again with values, and only so after that", async () => {
    resetStandardExtractSupport();
    vi.stubEnv("LANGGRAPH_API_URL", server!.apiUrl); // the app's standard-API mode
    try {
      const searches: Record<string, unknown>[] = [];
      const client = new Client({
        apiUrl: `${ORIGIN}/api/langgraph`,
        callerOptions: {
          maxRetries: 0,
          fetch: (async (input: string | URL | Request, init?: RequestInit) => {
            const req = new Request(input, init);
            if (req.url.endsWith("/threads/search")) searches.push(JSON.parse(await req.clone().text()) as Record<string, unknown>);
            return viaForwarder(req);
          }) as typeof fetch,
        },
      });
      const text = "Compare two used cameras for travel";
      const thread = await client.threads.create();
      await client.runs.wait(thread.thread_id, "agent", { input: { messages: [{ type: "human", content: text }] } });
      const page = await fetchThreadPage(client, FIRST_PAGE, "");
      expect(page.rows.find((r) => r.id === thread.thread_id)?.title.title).toBe(fallbackTitle(text));
      expect(searches.map((s) => "extract" in s)).toEqual([true, false]);
      expect(standardExtractSupport()).toBe(false);
      const one = await fetchThreadRowPage(client, thread.thread_id);
      expect(one.rows.map((r) => r.title.title)).toEqual([fallbackTitle(text)]);
      expect(searches.map((s) => "extract" in s)).toEqual([true, false, false]);
    } finally {
      vi.unstubAllEnvs();
      resetStandardExtractSupport();
    }
  }, 60_000);

  it("a rename mid-stream is refused upstream as busy, kept, and written after the run: never lost", async () => {
    const client = sdk();
    const thread = await client.threads.create();
    // Wait for the run's instant title, so the rename really races a running run.
    const run = await streamUntilTitled(client, thread.thread_id, "Tell me a long story about lighthouses and the sea");
    const answer = (await client.threads.updateState(thread.thread_id, { values: { title: "  Lighthouse tales " } })) as unknown as Record<string, unknown>;
    expect(answer).toMatchObject({ title: "Lighthouse tales", title_source: { kind: "user" }, pending: true });
    // While it waits, reads through us already show it (a refetching sidebar must not lose it)…
    const during = await client.threads.getState<{ title: string }>(thread.thread_id);
    expect(during.values.title).toBe("Lighthouse tales");
    const [row] = await client.threads.search({ ids: [thread.thread_id], select: ["thread_id", "values"] });
    expect((row.values as { title: string }).title).toBe("Lighthouse tales");
    // …while the LangGraph server itself does not have it yet: the run is still going.
    const upstreamNow = await new Client({ apiUrl: server!.apiUrl }).threads.getState<{ title: string }>(thread.thread_id);
    expect(upstreamNow.values.title).not.toBe("Lighthouse tales");
    await run.finish();
    expect(await fwd.renames.settled(thread.thread_id)).toBe(true);
    const after = await client.threads.getState<{ title: string; title_source: unknown }>(thread.thread_id);
    expect(after.values).toMatchObject({ title: "Lighthouse tales", title_source: { kind: "user" } });
    // The graph itself keeps the pin: a second run's middleware never replaces a user title.
    await client.runs.wait(thread.thread_id, "agent", { input: { messages: [{ type: "human", content: "And one more?" }] } });
    const later = await client.threads.getState<{ title: string; title_source: unknown }>(thread.thread_id);
    expect(later.values).toMatchObject({ title: "Lighthouse tales", title_source: { kind: "user" } });
  }, 90_000);

  it("a rename still waiting when the web server is killed is written by the next one, from its journal", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tl-remote-restart-"));
    // Web server #1: a real process (its own forwarder and journal); kill -9'd below.
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["lib/server/remote/testdata/rename-and-wait.ts"], {
      env: { ...process.env, LANGGRAPH_API_URL: server!.apiUrl, DATA_DIR: dataDir, THREADLINE_AUTH: "local" },
      stdio: ["pipe", "pipe", "inherit"],
      detached: true,
    });
    webServers.push(child.pid!);
    const lines: string[] = [];
    const waiters: (() => void)[] = [];
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d;
      while (out.includes("\n")) {
        lines.push(out.slice(0, out.indexOf("\n")));
        out = out.slice(out.indexOf("\n") + 1);
        waiters.splice(0).forEach((w) => w());
      }
    });
    const nextLine = async () => {
      while (!lines.length) {
        if (child.exitCode != null) throw new Error(`web server #1 exited ${child.exitCode}`);
        await new Promise<void>((r) => waiters.push(r));
      }
      return lines.shift()!;
    };
    expect(await nextLine()).toBe("ready");
    const client = sdk();
    const thread = await client.threads.create();
    const run = await streamUntilTitled(client, thread.thread_id, "Tell me a long story about harbours at night");
    child.stdin!.write(`${thread.thread_id} Harbour nights\n`);
    const answer = await nextLine();
    expect(JSON.parse(answer)).toMatchObject({ title: "Harbour nights", pending: true });
    process.kill(-child.pid!, "SIGKILL");
    await run.finish();
    // Nobody is left to write it: the LangGraph server still has the run's own title.
    const upstream = new Client({ apiUrl: server!.apiUrl });
    expect((await upstream.threads.getState<{ title: string }>(thread.thread_id)).values.title).not.toBe("Harbour nights");
    // Web server #2 on the same DATA_DIR takes it up at start and writes it.
    const journal = openRenameJournal(path.join(dataDir, "pending-renames.sqlite"));
    const next = createForwarder({ apiUrl: server!.apiUrl, apiKey: null, mode: "local", secret: null, guard: guardConfigFromEnv({}), searchScan: 5000 }, { journal });
    expect(next.renames.size).toBe(1);
    expect(await next.renames.settled(thread.thread_id)).toBe(true);
    const after = await upstream.threads.getState<{ title: string; title_source: unknown }>(thread.thread_id);
    expect(after.values).toMatchObject({ title: "Harbour nights", title_source: { kind: "user" } });
    expect(journal.all()).toEqual([]);
    journal.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it("an idle rename is written at once; an invalid one is a 422 and changes nothing", async () => {
    const client = sdk();
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "agent", { input: { messages: [{ type: "human", content: "Hi" }] } });
    const ok = (await client.threads.updateState(thread.thread_id, { values: { title: "Trip notes" } })) as unknown as Record<string, unknown>;
    expect(ok).toMatchObject({ title: "Trip notes", title_source: { kind: "user" } });
    expect(ok.pending).toBeUndefined();
    const bad = await viaForwarder(`${ORIGIN}/api/langgraph/threads/${thread.thread_id}/state`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ values: { title: "   " } }),
    });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ detail: "title-invalid: Title must not be empty" });
    expect((await client.threads.getState<{ title: string }>(thread.thread_id)).values.title).toBe("Trip notes");
  }, 30_000);

  it("a client that goes away aborts the upstream request", async () => {
    const client = sdk();
    const thread = await client.threads.create();
    const ac = new AbortController();
    const before = upstreamCalls.length;
    const stream = client.runs.stream(thread.thread_id, "agent", {
      // A long message: the offline model repeats it, so the run outlasts the abort even under load.
      input: { messages: [{ type: "human", content: "Something long to say ".repeat(150) }] },
      streamMode: ["messages-tuple"],
      signal: ac.signal,
    });
    const it = stream[Symbol.asyncIterator]();
    await it.next();
    const call = upstreamCalls.slice(before).find((c) => c.url.endsWith("/runs/stream"));
    expect(call?.signal?.aborted).toBe(false);
    ac.abort();
    await it.next().catch(() => undefined);
    await expect.poll(() => call?.signal?.aborted).toBe(true);
  }, 30_000);

  it("keeps the network checks, the body caps and Threadline-only routes answered clearly", async () => {
    const host = await fwd.serve(new Request(`${ORIGIN}/api/langgraph/info`, { headers: { Host: "evil.example" } }));
    expect(host.status).toBe(403);
    const cross = await fwd.serve(
      new Request(`${ORIGIN}/api/langgraph/threads`, { method: "POST", headers: { Host: "127.0.0.1:4771", Origin: "https://evil.example", "Content-Type": "application/json" }, body: "{}" }),
    );
    expect(cross.status).toBe(403);
    const calls = upstreamCalls.length;
    const big = await fwd.serve(
      new Request(`${ORIGIN}/api/langgraph/threads`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ metadata: { x: "y".repeat(1024 * 1024 + 10) } }) }),
    );
    expect(big.status).toBe(413);
    expect(upstreamCalls.length).toBe(calls); // refused here, never sent on
    const thread = await sdk().threads.create();
    for (const route of ["title/regenerate", "title/restore"]) {
      const res = await fwd.serve(new Request(`${ORIGIN}/api/langgraph/threads/${thread.thread_id}/${route}`, { method: "POST" }));
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toMatch(/^not-offered: /);
    }
  }, 30_000);

  it("sends the key upstream on every request and never back to the browser", async () => {
    // Its own requests (so it holds whatever order the file's tests run in): reads, writes, a stream.
    const calls = upstreamCalls.length;
    const saw = browserSaw.length;
    const client = sdk();
    const thread = await client.threads.create();
    await client.threads.search({ limit: 5 });
    await client.threads.getState(thread.thread_id);
    const res = await fwd.serve(
      new Request(`${ORIGIN}/api/langgraph/threads/${thread.thread_id}/runs/stream`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ assistant_id: "agent", input: { messages: [{ role: "human", content: "hello" }] }, stream_mode: ["values"] }),
      }),
    );
    expect(res.status).toBe(200);
    const streamed = [[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n"), await res.text()];
    expect(streamed[1]).toContain("event: values");
    const sent = upstreamCalls.slice(calls);
    expect(sent.map((c) => new URL(c.url).pathname)).toEqual(expect.arrayContaining(["/threads", "/threads/search", `/threads/${thread.thread_id}/state`, `/threads/${thread.thread_id}/runs/stream`]));
    for (const c of sent) expect(c.headers.get("x-api-key")).toBe(KEY);
    const answers = [...browserSaw.slice(saw), ...streamed];
    expect(answers.length).toBeGreaterThanOrEqual(8);
    for (const seen of answers) expect(seen).not.toContain(KEY);
  }, 30_000);
});
