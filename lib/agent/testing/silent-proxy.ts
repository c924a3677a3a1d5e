import net from "node:net";

/**
 * A loopback TCP proxy to a Postgres server that can go silent the way a network does: bytes stop
 * flowing and nothing is closed on either side, so neither the client nor the server hears of it.
 * Tests use it for a connection cut off without a word whose backend, unlike a stopped one, is free
 * to exit the moment it is told to; and to make answers arrive late on a connection that is alive.
 */
export interface SilentProxy {
  /** The connection string to give the client under test: the same as `target`'s, through the proxy. */
  url: string;
  /** Every connection open now goes silent (new ones are still passed through). */
  silenceOpen: () => void;
  /** Answers on every connection open now arrive `ms` late (a slow server or link, still alive). */
  slowOpen: (ms: number) => void;
  /** New connections are accepted but never passed on (a connect that hangs). */
  holdNew: (hold: boolean) => void;
  close: () => Promise<void>;
}

export async function silentProxy(target: string): Promise<SilentProxy> {
  const upstream = new URL(target);
  const pairs = new Set<{ client: net.Socket; server: net.Socket | null; silent: boolean; lateMs: number }>();
  let holding = false;
  // Half-open allowed, so a silent pair never answers a client's goodbye (FIN) with its own: the
  // client's socket then waits as it would on a dead link. Live pairs pass both halves on.
  const proxy = net.createServer({ allowHalfOpen: true }, (client) => {
    const pair = { client, server: null as net.Socket | null, silent: holding, lateMs: 0 };
    pairs.add(pair);
    client.on("error", () => undefined);
    // Kept in `pairs` after either side closes, so close() still ends a silent pair's other side.
    client.on("close", () => {
      if (!pair.silent) pair.server?.destroy();
    });
    if (pair.silent) return;
    const server = net.connect({ port: Number(upstream.port || 5432), host: upstream.hostname.replace(/^\[|\]$/g, ""), allowHalfOpen: true });
    pair.server = server;
    client.on("end", () => void (pair.silent || server.end()));
    server.on("end", () => void (pair.silent || client.end()));
    server.on("error", () => undefined);
    server.on("close", () => {
      if (!pair.silent) client.destroy();
    });
    client.on("data", (d) => void (pair.silent || server.write(d)));
    server.on("data", (d) => {
      if (pair.silent) return;
      if (pair.lateMs > 0) setTimeout(() => client.writable && client.write(d), pair.lateMs);
      else client.write(d);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((proxy.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    silenceOpen: () => pairs.forEach((p) => (p.silent = true)),
    slowOpen: (ms) => pairs.forEach((p) => (p.lateMs = ms)),
    holdNew: (hold) => void (holding = hold),
    close: async () => {
      for (const p of pairs) {
        p.client.destroy();
        p.server?.destroy();
      }
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
