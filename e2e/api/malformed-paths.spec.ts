import http from "node:http";
import { expect, test } from "@playwright/test";

// A path that is not valid percent-encoding: Next itself could not decode it into a route's params
// and answered a bare 500 (which the SDK retries). Sent raw: a URL parser would re-encode the `%`.
const PORT = Number(process.env.E2E_PORT ?? 3217);

function get(path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: PORT, path }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("a malformed percent-escape in an API path is a 400 with a detail, not a 500", async () => {
  for (const path of ["/threads/%ZZ", "/threads/%ff", "/threads/abc%ZZ/state", "/assistants/%ZZ", "/threads/abc/runs/%E0%A4%A"]) {
    const res = await get(`/api/langgraph${path}`);
    expect(res.status, path).toBe(400);
    expect(res.type, path).toContain("application/json");
    expect(JSON.parse(res.body), path).toEqual({ detail: "The path is not valid percent-encoding" });
  }
  for (const path of ["/api/auth/%ZZ", "/api/account/keys/%ZZ"]) expect((await get(path)).status, path).toBe(400);
});

test("well-formed escapes still reach the API, and a malformed page address is a 400 too", async () => {
  const found = await get("/api/langgraph/threads/%41bc");
  expect(found.status).toBe(404);
  expect(JSON.parse(found.body).detail).toMatch(/Thread Abc/);
  // Decoded and checked by the API itself (not a thread id it accepts).
  const chinese = await get("/api/langgraph/threads/%E4%BD%A0%E5%A5%BD");
  expect(chinese.status).toBe(422);
  expect(JSON.parse(chinese.body).detail).not.toMatch(/percent-encoding/);
  expect((await get("/api/langgraph/info")).status).toBe(200);
  const page = await get("/c/%ZZ");
  expect(page.status).toBe(400);
});
