import net from "node:net";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { localModeExposure, reachableFromNetwork } from "./loopback-only";

const hasNetwork = Object.values(os.networkInterfaces()).flat().some((a) => a && !a.internal && a.family === "IPv4");

async function listening(host: string) {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as net.AddressInfo).port };
}

describe.runIf(hasNetwork)("local mode stays on loopback", () => {
  it("a server on every interface is reachable from the network; one on 127.0.0.1 is not", async () => {
    const all = await listening("0.0.0.0");
    const loop = await listening("127.0.0.1");
    try {
      expect(await reachableFromNetwork(all.port)).toEqual(expect.any(String));
      expect(await reachableFromNetwork(loop.port)).toBeNull();
      const message = await localModeExposure({}, all.port);
      expect(message).toMatch(/THREADLINE_AUTH=accounts/);
      expect(message).toMatch(/-H 127\.0\.0\.1/);
      expect(await localModeExposure({ THREADLINE_AUTH: "accounts" }, all.port)).toBeNull();
    } finally {
      all.server.close();
      loop.server.close();
    }
  });
});
