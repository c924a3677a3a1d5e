import net from "node:net";
import { describe, expect, it } from "vitest";
import { exposedAddress, localModeExposure } from "./loopback-only";

async function listening(host: string) {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as net.AddressInfo).port };
}

// Reads this process's own listening sockets: nothing is sent to any address.
describe("local mode stays on loopback", () => {
  it("a server on every interface is exposed; one on 127.0.0.1 is not", async () => {
    const all = await listening("0.0.0.0");
    const loop = await listening("127.0.0.1");
    try {
      expect(exposedAddress(all.port)).toBe("0.0.0.0");
      expect(exposedAddress(loop.port)).toBeNull();
      const message = localModeExposure({}, all.port);
      expect(message).toMatch(/THREADLINE_AUTH=accounts/);
      expect(message).toMatch(/-H 127\.0\.0\.1/);
      expect(localModeExposure({}, loop.port)).toBeNull();
      expect(localModeExposure({ THREADLINE_AUTH: "accounts" }, all.port)).toBeNull();
    } finally {
      all.server.close();
      loop.server.close();
    }
  });
});
