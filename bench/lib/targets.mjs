import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { attachProfiler } from "./profiler.mjs";
import { sleep } from "./stats.mjs";

/**
 * The two servers under test, started the same way a user would: Threadline's production build
 * (`next start`, fresh DATA_DIR) and `langgraphjs dev` serving this repo's langgraph.json (fresh
 * `.langgraph_api` state). Both get the same model environment.
 */
export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/**
 * `next build` when there is no build, or the build is older than the checked-out commit (the
 * results name HEAD's commit, so they must come from a build of it). Uncommitted edits are not
 * detected: build by hand after editing. A NEXT_DIST_DIR build (an older commit kept for a
 * before/after comparison) is never rebuilt.
 */
export function ensureBuild() {
  const dist = path.join(root, process.env.NEXT_DIST_DIR ?? ".next");
  const built = path.join(dist, "BUILD_ID");
  const headTime = Number(spawnSync("git", ["log", "-1", "--format=%ct"], { cwd: root, encoding: "utf8" }).stdout.trim()) * 1000;
  if (fs.existsSync(built) && (process.env.NEXT_DIST_DIR || !(fs.statSync(built).mtimeMs < headTime))) return;
  console.log(fs.existsSync(built) ? `the build in ${dist} is older than HEAD: running next build` : `no build in ${dist}: running next build`);
  const r = spawnSync(bin("next"), ["build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (r.status !== 0) throw new Error("next build failed");
}

/** CPU time (user + system) a process and its descendants have used so far, in seconds (Linux /proc). */
export function treeCpuSeconds(pid) {
  const tick = 100; // USER_HZ on Linux
  let sum = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // f[1] ppid, f[2] pgrp: the server runs in its own process group (detached)
      if (Number(entry) === pid || Number(f[2]) === pid) sum += Number(f[11]) + Number(f[12]);
    } catch {
      // gone
    }
  }
  return sum / tick;
}

/** Resident memory of a process and all its descendants, in MB (Linux /proc). */
export function treeRssMb(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  let kb = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {
      // gone
    }
    stack.push(...(children.get(p) ?? []));
  }
  return kb / 1024;
}

const BASE_ENV = {
  NEXT_TELEMETRY_DISABLED: "1",
  LANGSMITH_TRACING: "",
  LANGCHAIN_TRACING_V2: "",
  OPENAI_API_KEY: "",
  OPENAI_BASE_URL: "",
  ANTHROPIC_API_KEY: "",
  CHAT_MODEL: "",
  TITLE_MODEL: "",
  THREADLINE_AUTH: "local",
};

/** A child still running: neither exited nor killed by a signal. */
const running = (child) => child.exitCode == null && child.signalCode == null;

/** Waits until `url` answers 2xx; throws (with the server's output, `log()`) if the child ends or `ms` pass. */
export async function waitUntilUp(child, url, log, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!running(child)) throw new Error(`server exited early:\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`server did not answer ${url} in time:\n${log()}`);
}

/** Stops a child started `detached` (its own process group): SIGTERM to the group, SIGKILL after 5 s. */
export async function stopGroup(child) {
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  if (!child.pid) return;
  // The whole group, even if its leader is gone: a server's own children may outlive it.
  signal("SIGTERM");
  for (let i = 0; i < 50 && running(child); i++) await sleep(100);
  signal("SIGKILL");
}

/**
 * Starts one target: kind "threadline" or "langgraph-dev", with extra env (model settings).
 * Options: nodeArgs (Threadline only), dataDir (the caller's, kept at stop; else a temp folder,
 * removed), onOutput(line) for every line the server prints (only a tail is kept otherwise),
 * profileDir (Threadline only: started with the inspector on a loopback port, and the target gets
 * a `profiler` that CPU-profiles a stretch into that folder, bench/lib/profiler.mjs).
 * Returns { name, apiUrl, client, pid, rssMb(), stop() }.
 */
export async function startTarget(kind, env = {}, { nodeArgs: extraArgs = [], dataDir: ownDataDir, onOutput, profileDir } = {}) {
  const nodeArgs = profileDir && kind === "threadline" ? [...extraArgs, "--inspect=127.0.0.1:0"] : extraArgs;
  let inspectorUrl;
  const port = await freePort();
  const dataDir = ownDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `threadline-bench-${kind}-`));
  const devState = path.join(root, ".langgraph_api");
  let cmd;
  let args;
  let apiUrl;
  if (kind === "threadline") {
    // nodeArgs (e.g. --cpu-prof, which NODE_OPTIONS refuses) need node started directly.
    cmd = nodeArgs.length ? process.execPath : bin("next");
    args = [...(nodeArgs.length ? [...nodeArgs, path.join(root, "node_modules", "next", "dist", "bin", "next")] : []), "start", "-H", "127.0.0.1", "-p", String(port)];
    apiUrl = `http://127.0.0.1:${port}/api/langgraph`;
  } else {
    fs.rmSync(devState, { recursive: true, force: true });
    cmd = bin("langgraphjs");
    args = ["dev", "--no-browser", "--port", String(port), "--host", "127.0.0.1"];
    apiUrl = `http://127.0.0.1:${port}`;
  }
  let output = "";
  const child = spawn(cmd, args, {
    cwd: root,
    env: { ...process.env, ...BASE_ENV, DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const keep = (d) => {
    output = (output + d).slice(-20_000);
  };
  for (const stream of [child.stdout, child.stderr]) {
    let partial = "";
    stream.on("data", (d) => {
      keep(d);
      if (profileDir) inspectorUrl ??= /Debugger listening on (ws:\/\/\S+)/.exec(String(d))?.[1];
      if (!onOutput) return;
      const lines = (partial + d).split("\n");
      partial = lines.pop();
      for (const line of lines) onOutput(line);
    });
  }
  let profiler;
  const stop = async () => {
    profiler?.close();
    await stopGroup(child);
    if (!ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (kind !== "threadline") fs.rmSync(devState, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(child, `${apiUrl}/info`, () => output, 120_000);
    if (profileDir && kind === "threadline") {
      if (!inspectorUrl) throw new Error(`no inspector address in the server's output:\n${output}`);
      profiler = await attachProfiler(inspectorUrl, profileDir);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    kind,
    name: kind === "threadline" ? "Threadline" : "langgraph dev",
    baseUrl: `http://127.0.0.1:${port}`,
    apiUrl,
    client: new Client({ apiUrl, callerOptions: { maxRetries: 0 } }),
    pid: child.pid,
    profiler,
    rssMb: () => treeRssMb(child.pid),
    cpuSeconds: () => treeCpuSeconds(child.pid),
    log: () => output,
    stop,
  };
}
