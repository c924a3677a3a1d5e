import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

/**
 * `npm run dev` as a developer meets it: opened at http://127.0.0.1 or http://[::1] instead of "localhost" (Next
 * serves its dev scripts only to origins it knows, so without `allowedDevOrigins` the page never
 * hydrates), and with no Edge-runtime warning about instrumentation.ts in its output.
 * One page only: a first `next dev` compile is slow on a busy 2-core machine.
 */
test.setTimeout(420_000);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function startDevServer(port: number): { child: ChildProcess; output: () => string } {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: path.join(os.tmpdir(), `threadline-dev-${process.pid}-${port}`),
    NEXT_TELEMETRY_DISABLED: "1",
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
  };
  // `next dev` keeps its output in <distDir>/dev, apart from the production build under test.
  delete env.NEXT_DIST_DIR;
  // Exactly what `npm run dev` runs: next dev on 127.0.0.1 plus the [::1] forwarder.
  const child = spawn("node", ["lib/dev/dev-server.mjs"], { env: { ...env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  return { child, output: () => output };
}

/** Ctrl+K focuses the title search only once React has hydrated the page. */
async function expectHydrated(page: Page) {
  const search = page.getByTestId("sidebar").getByTestId("thread-search");
  await expect(async () => {
    await page.keyboard.press("Control+k");
    await expect(search).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: 180_000 });
}

test("npm run dev hydrates at http://127.0.0.1 and http://[::1] and warns about no Edge runtime", async ({ page }) => {
  const port = await freePort();
  const dev = startDevServer(port);
  try {
    await expect.poll(() => dev.output(), { timeout: 60_000 }).toContain("Ready");
    await page.goto(`http://127.0.0.1:${port}/`, { timeout: 300_000 });
    await expectHydrated(page);
    await page.goto(`http://[::1]:${port}/`, { timeout: 120_000 });
    await expectHydrated(page);
    expect(dev.output()).not.toMatch(/Edge Runtime/i);
    expect(dev.output()).not.toMatch(/Blocked cross-origin/i);
  } finally {
    if (dev.child.pid) process.kill(-dev.child.pid, "SIGTERM");
  }
});
