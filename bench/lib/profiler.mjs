import fs from "node:fs";
import path from "node:path";
import WebSocket from "ws";

/**
 * A CPU profile of one stretch of a running server (`--inspect` on a loopback port), over the
 * inspector protocol: `start()` before a batch, `stop(tag)` after it writes `<dir>/<tag>.cpuprofile`
 * (open it in Chrome DevTools) and returns one line: how much of the stretch the main thread was
 * idle or in GC, and the functions it spent most of its own time in (`stopProfile(tag)` writes the
 * same file and returns the profile itself). An idle main thread while
 * requests are slow means the server waits on something; a busy one means it works.
 */
export async function attachProfiler(wsUrl, dir) {
  const ws = new WebSocket(wsUrl, { maxPayload: 2 ** 30 });
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  let id = 0;
  const waiting = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(data);
    waiting.get(msg.id)?.(msg);
    waiting.delete(msg.id);
  });
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 1000 });
  fs.mkdirSync(dir, { recursive: true });
  /** Stops, writes the file, and returns the profile itself. */
  const stopProfile = async (tag) => {
    const { result } = await send("Profiler.stop");
    fs.writeFileSync(path.join(dir, `${tag}.cpuprofile`), JSON.stringify(result.profile));
    return result.profile;
  };
  return {
    start: () => send("Profiler.start"),
    stopProfile,
    stop: async (tag) => summarise(await stopProfile(tag)),
    close: () => ws.close(),
  };
}

/** Where a profile's samples fell: idle and GC shares, then the top functions by self time. */
export function summarise(profile, top = 6) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (const sample of profile.samples) {
    const { functionName, url, lineNumber } = nodes.get(sample).callFrame;
    const where = url ? `${url.replace(/^.*node_modules\//, "").replace(/^.*\.next\/server\//, ".next/")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"}${where ? ` ${where}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length || 1;
  const share = (key) => `${((100 * (self.get(key) ?? 0)) / total).toFixed(1)} %`;
  const busiest = [...self.entries()]
    .filter(([key]) => !key.startsWith("(idle)") && !key.startsWith("(garbage collector)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, n]) => `${key} ${((100 * n) / total).toFixed(1)} %`);
  return `main thread idle ${share("(idle)")}, GC ${share("(garbage collector)")}; most self time: ${busiest.join("; ")}`;
}
