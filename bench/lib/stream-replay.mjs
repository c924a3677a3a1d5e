// Servers that do no work for workload 6: one real run's stream recorded from Threadline (the
// bench's request), then replayed byte for byte at its recorded pace, by replay-server.mjs (a bare
// node:http process of its own, so the client's CPU and the server's stay apart, as with
// Threadline) or by the Next app doing no work (bare-next.mjs, through `next start`). What a replay
// scores is what the SDK client, the connections and the machine (and, for the Next app, Next)
// cost before any server work, plus the recorded run's own pacing. Used by bench/run.mjs and
// bench/scripts/stream-client-floor.mjs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { buildBareNext, startBareNext } from "./bare-next.mjs";
import { root, treeRssMb } from "./targets.mjs";
import { concurrentRun } from "../workloads/stream.mjs";

// Per-hop headers the replay server's own connection sets itself.
const HOP = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "date"]);

/** One run of workload 6's request against Threadline, its stream's chunks with their times. */
export async function record(tl) {
  let thread;
  let headers;
  let chunks;
  let endAt;
  const client = new Client({
    apiUrl: tl.apiUrl,
    callerOptions: {
      maxRetries: 0,
      fetch: async (url, init) => {
        const t0 = performance.now();
        const res = await fetch(url, init);
        if (String(url).endsWith("/threads")) thread = await res.clone().json();
        if (!String(url).endsWith("/runs/stream")) return res;
        headers = Object.fromEntries([...res.headers].filter(([k]) => !HOP.has(k)));
        chunks = [];
        const text = new TextDecoder();
        const body = res.body.pipeThrough(
          new TransformStream({
            transform(chunk, out) {
              chunks.push({ at: performance.now() - t0, text: text.decode(chunk, { stream: true }) });
              out.enqueue(chunk);
            },
            flush() {
              endAt = performance.now() - t0;
            },
          }),
        );
        return new Response(body, { status: res.status, headers: res.headers });
      },
    },
  });
  // The last of three runs: the first ones warm the server up.
  for (let i = 0; i < 3; i++) {
    const { thread_id } = await client.threads.create();
    const stream = client.runs.stream(thread_id, "agent", concurrentRun(0, 1));
    for await (const part of stream) if (part.event === "error") throw new Error(`recording run failed: ${JSON.stringify(part.data)}`);
  }
  // The first chunk goes out at once: the replay server has nothing to do before it.
  const first = chunks[0].at;
  return { thread, streamHeaders: headers, chunks: chunks.map((c) => ({ at: c.at - first, text: c.text })), endAt: endAt - first };
}

/** replay-server.mjs serving the recording in `file`. */
async function serveRecording(file) {
  const child = spawn(process.execPath, [path.join(root, "bench/scripts/replay-server.mjs"), file], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error("replay server did not start in 10 s"));
    }, 10_000);
    child.once("exit", (code) => reject(new Error(`replay server exited (${code})`)));
    child.stdout.on("data", (d) => {
      const m = /PORT (\d+)/.exec(String(d));
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  const apiUrl = `http://127.0.0.1:${port}`;
  return {
    name: "replay (no work)",
    apiUrl,
    client: new Client({ apiUrl, callerOptions: { maxRetries: 0 } }),
    rssMb: () => treeRssMb(child.pid),
    stop: () => child.kill(),
  };
}

/** What the notes say of a recording: its events, bytes, chunks and largest gap. */
function describe(recording) {
  const events = recording.chunks.reduce((n, c) => n + (c.text.match(/^event: /gm)?.length ?? 0), 0);
  const bytes = recording.chunks.reduce((n, c) => n + Buffer.byteLength(c.text), 0);
  const gaps = recording.chunks.slice(1).map((c, i) => c.at - recording.chunks[i].at);
  const largestGap = Math.max(...gaps);
  return { largestGap, about: `${events} events, ${bytes} bytes in ${recording.chunks.length} chunks over ${recording.endAt.toFixed(0)} ms; its largest gap between two chunks ${largestGap.toFixed(1)} ms` };
}

/** The same chunks spread evenly over the recorded span, without the recording's own jitter. */
export function evenPaced(recording) {
  const step = recording.chunks.at(-1).at / Math.max(1, recording.chunks.length - 1);
  return { ...recording, chunks: recording.chunks.map((c, i) => ({ ...c, at: i * step })) };
}

/**
 * Starts a server that does no work replaying `recording` (from `record`): a target for
 * runConcurrency, with `about` (the recording's events, bytes, chunks and largest gap) and
 * `largestGap` for the notes. By default replay-server.mjs, a bare node:http process; `viaNext`:
 * the Next app doing no work (bare-next.mjs, built and served as Threadline is), so the two set
 * apart what `next start` itself costs the streams. `bareDir`: a build of that app to use (kept at
 * stop); without it one is built and removed at stop.
 */
export async function startReplay(recording, { viaNext = false, bareDir, name } = {}) {
  const { about, largestGap } = describe(recording);
  let replay;
  if (viaNext) {
    const dir = bareDir ?? buildBareNext();
    replay = await startBareNext(dir, { info: "{}", page: "[]", stream: recording }, { keepBuild: Boolean(bareDir) });
    replay.name = "replay through a Next app (no work)";
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stream-floor-"));
    const file = path.join(dir, "recording.json");
    fs.writeFileSync(file, JSON.stringify(recording));
    try {
      const served = await serveRecording(file);
      replay = { ...served, stop: async () => (served.stop(), fs.rmSync(dir, { recursive: true, force: true })) };
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }
  // largestGap: the recorded run's largest gap between two chunks (ms), which every replayed stream repeats.
  return Object.assign(replay, { about, largestGap, ...(name ? { name } : {}) });
}
