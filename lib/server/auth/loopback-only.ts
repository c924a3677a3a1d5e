import net from "node:net";
import { authModeFromEnv } from "./identity";

const isLoopback = (address: string) => address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");

/**
 * Where this process listens on `port`, read from its own listening sockets (no traffic is sent
 * anywhere to find out). Next has bound the port by the time instrumentation runs.
 */
export function listeningAddresses(port: number): string[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  return handles
    .filter((h): h is net.Server => h instanceof net.Server && h.listening)
    .map((s) => s.address())
    .filter((a): a is net.AddressInfo => typeof a === "object" && a !== null && a.port === port)
    .map((a) => a.address);
}

/** A non-loopback address this process listens on (0.0.0.0 and :: mean every interface), or null. */
export function exposedAddress(port: number): string | null {
  return listeningAddresses(port).find((a) => !isLoopback(a)) ?? null;
}

/**
 * `local` mode has no sign-in: whoever reaches the server is its owner, so it may only listen on
 * loopback. The refusal message, or null when the server may run (accounts mode, or loopback only).
 */
export function localModeExposure(env: Record<string, string | undefined>, port: number): string | null {
  if (authModeFromEnv(env) !== "local") return null;
  const address = exposedAddress(port);
  if (!address) return null;
  const where = net.isIPv6(address) ? `[${address}]` : address;
  return (
    `THREADLINE_AUTH=local (the default) has no sign-in, so it only listens on loopback, but this server ` +
    `listens on ${where}:${port}. Start it with -H 127.0.0.1 (npm run dev / npm start do), ` +
    `or use THREADLINE_AUTH=accounts to share it on a network.`
  );
}
