import http from "node:http";
import { expect, test } from "@playwright/test";

// Real browser rules: Chromium sends the preflight and decides what a page may read. The server
// runs with THREADLINE_CORS_ORIGINS=http://localhost:PORT (playwright.config.ts); a page on
// http://127.0.0.1:PORT calling http://localhost:PORT is cross-origin and unlisted.
const PORT = Number(process.env.E2E_PORT ?? 3217);
const API = `http://127.0.0.1:${PORT}/api/langgraph`;

function getWithHost(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: PORT, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

async function threadCount(request: import("@playwright/test").APIRequestContext) {
  const res = await request.post(`${API}/threads/count`, { data: { metadata: { e2e: "cross-site" } } });
  return (await res.json()) as number;
}

test("a foreign Host gets 403 on pages and on the API (DNS rebinding)", async () => {
  expect(await getWithHost("/", "evil.example")).toBe(403);
  expect(await getWithHost("/api/langgraph/info", `evil.example:${PORT}`)).toBe(403);
  expect(await getWithHost("/api/langgraph/info", `localhost:${PORT}`)).toBe(200);
});

test("an unlisted origin cannot create a thread: the preflight fails, and a no-cors text POST is refused", async ({ page, request }) => {
  await page.goto(`http://127.0.0.1:${PORT}/api/langgraph/info`);
  const outcome = await page.evaluate(async (api) => {
    const body = JSON.stringify({ metadata: { e2e: "cross-site" } });
    const preflighted = await fetch(`${api}/threads`, { method: "POST", headers: { "Content-Type": "application/json" }, body })
      .then((r) => `status ${r.status}`)
      .catch(() => "blocked");
    await fetch(`${api}/threads`, { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" }, body });
    return preflighted;
  }, `http://localhost:${PORT}/api/langgraph`);
  expect(outcome).toBe("blocked");
  expect(await threadCount(request)).toBe(0);
});

test("a listed origin passes its preflight and reads the answer of an API-key call", async ({ page }) => {
  await page.goto(`http://localhost:${PORT}/api/langgraph/info`);
  const result = await page.evaluate(async (api) => {
    const res = await fetch(`${api}/threads`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Api-Key": "any-key-in-local-mode" },
      body: JSON.stringify({ metadata: { from: "listed-origin" } }),
    });
    return { status: res.status, body: await res.json() };
  }, API);
  expect(result.status).toBe(200);
  expect(result.body.metadata).toEqual({ from: "listed-origin" });
});
