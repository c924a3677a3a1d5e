// A Next app that does no work: one catch-all route handler at Threadline's API path that answers
// GET …/info and any POST with bodies fixed at start (or replays a recorded run's stream). Built and served like Threadline (`next
// build`, `next start -H 127.0.0.1`), with the same next version, bundler and settings that touch a
// response (poweredByHeader off; the same `Cache-Control: no-transform` on loopback that keeps
// Next's gzip off Threadline's answers). What it costs is what any answer through `next start`
// costs on this machine: the framework's floor.
//
// It is written into a temp folder with a hard-linked copy of this repo's node_modules (the same
// next and bundler as Threadline's) and removed by stop(). A build that took in any code of ours (an
// instrumentation hook, a proxy) is refused: the floor must be Next alone.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { freePort, root, stopGroup, treeCpuSeconds, treeRssMb, waitUntilUp } from "./targets.mjs";

/** Writes and builds the bare app (~20 s); start it with startBareNext once the bodies are known. */
export function buildBareNext() {
  // Outside the repo, with its own (hard-linked) node_modules: inside it, Turbopack takes the repo's
  // instrumentation.ts and proxy.ts into the build whatever the folder (seen in the chunks' source maps).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-bare-next-"));
  const linked = spawnSync("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")], { encoding: "utf8" });
  if (linked.status !== 0) throw new Error(`could not link node_modules for the bare app: ${linked.stderr}`);
  const route = path.join(dir, "app", "api", "langgraph", "[...path]");
  fs.mkdirSync(route, { recursive: true });
  fs.writeFileSync(path.join(dir, "next.config.mjs"), `export default { poweredByHeader: false, turbopack: { root: ${JSON.stringify(dir)} } };\n`);
  fs.writeFileSync(
    path.join(route, "route.js"),
    [
      "// Written by bench/lib/bare-next.mjs: answers with bodies read once from BARE_NEXT_BODIES, no work.",
      'import fs from "node:fs";',
      'export const runtime = "nodejs";',
      'export const dynamic = "force-dynamic";',
      'const HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-transform" };',
      "let bodies;",
      "const body = (which) => (bodies ??= JSON.parse(fs.readFileSync(process.env.BARE_NEXT_BODIES, \"utf8\")))[which];",
      "export async function GET() {",
      '  return new Response(body("info"), { headers: HEADERS });',
      "}",
      "export async function POST(req) {",
      "  await req.text();",
      '  const rec = body("stream");',
      '  if (rec && req.nextUrl.pathname.endsWith("/threads")) return Response.json({ ...rec.thread, thread_id: crypto.randomUUID() });',
      '  if (rec && req.nextUrl.pathname.endsWith("/runs/stream")) return new Response(replay(rec, req.signal), { headers: rec.streamHeaders });',
      '  return new Response(body("page"), { headers: HEADERS });',
      "}",
      "// A recorded run's chunks at their recorded pace, as bench/scripts/replay-server.mjs sends them",
      "// without Next (keep the two alike): every chunk that is due goes out at once. Encoded once.",
      "let encoded;",
      "function replay(rec, signal) {",
      "  const bytes = (encoded ??= rec.chunks.map((c) => new TextEncoder().encode(c.text)));",
      "  const t0 = performance.now();",
      "  let i = 0;",
      "  let timer;",
      "  return new ReadableStream({",
      "    start(controller) {",
      "      signal.addEventListener('abort', () => clearTimeout(timer), { once: true });",
      "      const sendDue = () => {",
      "        while (i < bytes.length && rec.chunks[i].at <= performance.now() - t0) controller.enqueue(bytes[i++]);",
      "        const due = i < bytes.length ? rec.chunks[i].at : rec.endAt;",
      "        if (i === bytes.length && due <= performance.now() - t0) controller.close();",
      "        else timer = setTimeout(sendDue, due - (performance.now() - t0));",
      "      };",
      "      sendDue();",
      "    },",
      "    cancel() {",
      "      clearTimeout(timer);",
      "    },",
      "  });",
      "}",
      "",
    ].join("\n"),
  );
  const built = spawnSync(nextBin(dir), ["build"], { cwd: dir, env: bareEnv(), encoding: "utf8" });
  if (built.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`next build of the bare app failed:\n${built.stdout}\n${built.stderr}`);
  }
  const ours = fs.readdirSync(path.join(dir, ".next", "server")).filter((f) => /^(instrumentation|middleware|proxy)\.js$/.test(f));
  if (ours.length) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`the bare app's build holds ${ours.join(", ")}: it is not bare`);
  }
  return dir;
}

const nextBin = (dir) => path.join(dir, "node_modules", ".bin", "next");

function bareEnv() {
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  delete env.NEXT_DIST_DIR;
  delete env.DATA_DIR;
  delete env.DATABASE_URL;
  return env;
}

/**
 * Starts the app built in `dir` answering `info` and `page`: a bench target (the SDK client and
 * apiUrl the workloads use). stop() also removes `dir`, unless `keepBuild` (its builder removes
 * it; one build can then serve one started app after another).
 * With `stream` (a recording from stream-replay.mjs's `record`), `POST …/threads` answers its
 * thread and `POST …/runs/stream` replays its chunks at their recorded pace, as replay-server.mjs
 * does without Next.
 * @param {string} dir @param {{ info: string, page: string, stream?: object }} bodies
 * @param {{ keepBuild?: boolean }} [options]
 */
export async function startBareNext(dir, { info, page, stream }, { keepBuild = false } = {}) {
  const bodies = path.join(dir, "bodies.json");
  fs.writeFileSync(bodies, JSON.stringify({ info, page, stream }));
  const port = await freePort();
  const child = spawn(nextBin(dir), ["start", "-H", "127.0.0.1", "-p", String(port)], { cwd: dir, env: { ...bareEnv(), BARE_NEXT_BODIES: bodies }, stdio: "ignore", detached: true });
  const apiUrl = `http://127.0.0.1:${port}/api/langgraph`;
  const stop = async () => {
    await stopGroup(child);
    if (!keepBuild) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(child, `${apiUrl}/info`, () => "(its output is not kept)", 30_000);
  } catch (err) {
    await stop();
    throw new Error(`the bare Next app did not start: ${err.message}`);
  }
  return {
    kind: "threadline",
    name: "a Next app doing no work",
    apiUrl,
    pageBody: page,
    client: new Client({ apiUrl, callerOptions: { maxRetries: 0 } }),
    cpuSeconds: () => treeCpuSeconds(child.pid),
    rssMb: () => treeRssMb(child.pid),
    stop,
  };
}
