// Preloaded into a bench server (`node --import`), never into the app: for every POST to
// .../runs/stream, when the server accepted its connection, when Node's HTTP server parsed it and
// when the server first wrote its answer (the `metadata` event), appended to $HTTP_TRACE_FILE as
// "<thread id> <accepted ms> <parsed ms> <first write ms>"
// (epoch ms, the same clock the client reads); and every 250 ms how late the event loop ran
// (`loop <epoch ms> <p50 ms> <max ms>` of that stretch: how long anything waited for the one
// thread). Used by bench/scripts/first-event-trace.mjs.
import diagnostics from "node:diagnostics_channel";
import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.HTTP_TRACE_FILE;
const now = () => performance.timeOrigin + performance.now();

if (file) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  setInterval(() => {
    if (delay.count) fs.appendFileSync(file, `loop ${now().toFixed(1)} ${(delay.percentile(50) / 1e6).toFixed(1)} ${(delay.max / 1e6).toFixed(1)}\n`);
    delay.reset();
  }, 250).unref();
  const accepted = new WeakMap();
  diagnostics.subscribe("net.server.socket", ({ socket }) => accepted.set(socket, now()));
  diagnostics.subscribe("http.server.request.start", ({ request, response, socket }) => {
    const parsed = now();
    // Only a connection's first request waited since its accept; a later one on the same kept-alive
    // connection is counted from its own parse.
    const since = accepted.get(socket) ?? parsed;
    accepted.delete(socket);
    const match = request.method === "POST" && /\/threads\/([^/]+)\/runs\/stream$/.exec(request.url ?? "");
    if (!match) return;
    const write = response.write;
    let traced = false;
    response.write = function (...args) {
      if (!traced) {
        traced = true;
        fs.appendFileSync(file, `${match[1]} ${since.toFixed(1)} ${parsed.toFixed(1)} ${now().toFixed(1)}\n`);
      }
      return write.apply(this, args);
    };
  });
}
