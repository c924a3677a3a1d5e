import { afterEach, describe, expect, it } from "vitest";
import { LiveRun } from "./live-run";
import { runStreamResponse } from "./run-stream";
import { encodeEvent, type RunEvent } from "../http/sse";
import { ScriptedModel, collect, createHarness, human, sleep, type Harness } from "../test-harness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const body = { assistant_id: "agent", input: human("hi") } as never;
const decoder = new TextDecoder();

/** Every chunk the response hands out, as text. */
async function chunksOf(res: Response): Promise<string[]> {
  const reader = res.body!.getReader();
  const out: string[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(decoder.decode(r.value));
  return out;
}

const eventsIn = (chunk: string) => [...chunk.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);

describe("SSE chunks (run-stream.ts)", () => {
  it("token events that piled up go out in one chunk; every values event (the title) is a chunk of its own", async () => {
    const run = new LiveRun("r1", "t1", body, ["values", "messages-tuple"]);
    // Emitted before the client reads anything, as when the server is busy.
    run.emit("metadata", { run_id: "r1" });
    run.emit("values", { messages: [], title: "Fallback title" });
    for (const w of ["One ", "two ", "three "]) run.emit("messages", [{ type: "AIMessageChunk", content: w }, {}]);
    run.emit("values", { messages: [], title: "The model's title" });
    for (const w of ["four ", "five"]) run.emit("messages", [{ type: "AIMessageChunk", content: w }, {}]);
    run.emit("values", { messages: [], title: "The model's title" });
    run.finish();
    const chunks = await chunksOf(runStreamResponse(run, { afterId: -1, resumable: false }));

    expect(chunks.map(eventsIn)).toEqual([["metadata"], ["values"], ["messages", "messages", "messages"], ["values"], ["messages", "messages"], ["values"]]);
    // The bytes are exactly the events one by one, in order: only the write boundaries moved.
    expect(chunks.join("")).toBe(run.events.map((e: RunEvent) => decoder.decode(encodeEvent(e))).join(""));
  });

  it("a live client that keeps up still gets each event as it happens", async () => {
    const run = new LiveRun("r2", "t2", body, ["values", "messages-tuple"]);
    const res = runStreamResponse(run, { afterId: -1, resumable: false });
    const reader = res.body!.getReader();
    run.emit("messages", [{ type: "AIMessageChunk", content: "a" }, {}]);
    expect(eventsIn(decoder.decode((await reader.read()).value))).toEqual(["messages"]);
    run.emit("values", { title: "T" });
    expect(eventsIn(decoder.decode((await reader.read()).value))).toEqual(["values"]);
    run.finish();
    expect((await reader.read()).done).toBe(true);
  });

  it("the SDK client sees every event, in order, with consecutive ids, through a many-token run", async () => {
    h = createHarness({ model: new ScriptedModel([Array.from({ length: 60 }, (_, i) => `w${i} `).join("")]) });
    const t = await h.client.threads.create();
    const parts = (await collect(h.client.runs.stream(t.thread_id, "agent", { input: human("Count"), streamMode: ["values", "messages-tuple"] }))) as { event: string; id?: string; data: unknown }[];
    expect(parts.every((p, i) => p.id === String(i))).toBe(true);
    const tokens = parts.filter((p) => p.event === "messages").map((p) => (p.data as [{ content: string }])[0].content);
    expect(tokens.join("")).toBe(Array.from({ length: 60 }, (_, i) => `w${i} `).join(""));
  });
});

describe("run admission (run-admission.ts)", () => {
  it("a POST is answered before its run starts work, and a busy server starts a burst of runs a few per turn", async () => {
    h = createHarness({ model: new ScriptedModel(["Busy answer with a few words in it."], 5), runLimits: { maxConcurrentRuns: 64, admitPerTurn: 2 } });
    const harness = h;
    // The server is busy: four runs streaming.
    const busy = await Promise.all(Array.from({ length: 4 }, () => harness.client.threads.create()));
    const streaming = busy.map((t) => collect(harness.client.runs.stream(t.thread_id, "agent", { input: human("Busy") })));
    await sleep(20);
    const threads = await Promise.all(Array.from({ length: 8 }, () => harness.client.threads.create()));
    const statusAtAnswer: string[] = [];
    const post = async (threadId: string) => {
      const res = await harness.fetch(`/threads/${threadId}/runs/stream`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "agent", input: human("New"), stream_mode: ["values"] }),
      });
      const runId = res.headers.get("content-location")!.split("/").pop()!;
      statusAtAnswer.push(harness.api.runs.get(runId)!.status);
      return res.text();
    };
    const answers = Promise.all(threads.map((t) => post(t.thread_id)));
    // Sampled once per turn: runs start at most two per turn.
    let prev = 0;
    const starts: number[] = [];
    while (statusAtAnswer.length < 8 || harness.api.runs.sizes.admitting) {
      await new Promise((r) => setImmediate(r));
      const admitting = harness.api.runs.sizes.admitting;
      if (prev) starts.push(prev - admitting);
      prev = admitting;
    }
    expect(statusAtAnswer).toEqual(Array(8).fill("pending"));
    expect(Math.max(...starts)).toBeLessThanOrEqual(2);
    for (const text of await answers) expect(text).toContain("event: values");
    await Promise.all(streaming);
    for (const t of threads) expect((await harness.client.threads.get(t.thread_id)).status).toBe("idle");
  });
});
