import net from "node:net";
import os from "node:os";
import { authModeFromEnv } from "./identity";

/**
 * `local` mode has no sign-in: whoever reaches the server is its owner. So it may only be
 * reachable from this machine. Rather than guess from flags how the server was bound, this asks
 * the one question that matters: does the port answer on any of this machine's other addresses?
 */
export async function reachableFromNetwork(port: number, timeoutMs = 500): Promise<string | null> {
  const addresses = Object.values(os.networkInterfaces())
    .flat()
    .filter((a): a is os.NetworkInterfaceInfo => Boolean(a && !a.internal && !(a.family === "IPv6" && a.scopeid)));
  const answers = await Promise.all(addresses.map((a) => connects(a.address, port, timeoutMs).then((ok) => (ok ? a.address : null))));
  return answers.find(Boolean) ?? null;
}

function connects(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** The refusal message, or null when the server may run (accounts mode, or loopback only). */
export async function localModeExposure(env: Record<string, string | undefined>, port: number): Promise<string | null> {
  if (authModeFromEnv(env) !== "local") return null;
  const address = await reachableFromNetwork(port);
  if (!address) return null;
  const where = net.isIPv6(address) ? `[${address}]` : address;
  return (
    `THREADLINE_AUTH=local (the default) has no sign-in, so it only listens on loopback, but this server ` +
    `answers on http://${where}:${port}. Start it with -H 127.0.0.1 (npm run dev / npm start do), ` +
    `or use THREADLINE_AUTH=accounts to share it on a network.`
  );
}
