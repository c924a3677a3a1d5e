#!/usr/bin/env node
// `npm run dev`: next dev on 127.0.0.1 (local mode listens on loopback only), plus a forwarder
// from [::1] to it, so the app opens at http://localhost, http://127.0.0.1 and http://[::1]
// alike — Next's -H takes one address, and binding "::" would open every interface.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

const port = Number(process.env.PORT || 3000);
const next = path.join(process.cwd(), "node_modules", ".bin", "next");
const child = spawn(next, ["dev", "-H", "127.0.0.1", "-p", String(port), ...process.argv.slice(2)], { stdio: "inherit" });

const forwarder = net.createServer((client) => {
  const upstream = net.connect({ host: "127.0.0.1", port });
  client.pipe(upstream).pipe(client);
  const close = () => (client.destroy(), upstream.destroy());
  client.on("error", close);
  upstream.on("error", close);
});
// A machine without IPv6 loopback simply has no [::1] address to serve.
forwarder.on("error", (err) => console.warn(`[dev] not serving http://[::1]:${port}: ${err.code ?? err.message}`));
forwarder.listen(port, "::1");

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  forwarder.close();
  process.exit(code ?? (signal ? 1 : 0));
});
