import http from "node:http";
import { Readable } from "node:stream";
import { Client } from "@langchain/langgraph-sdk";

/**
 * An SDK Client as one user's browser tab has it: its own keep-alive connection (node:http with
 * an Agent of its own) and no cap on requests in flight. Why not the bench's shared Client for
 * workload 6's "N users press Send at once": that one keeps at most 4 requests in flight (the
 * SDK's default maxConcurrency, a slot held until the answer's headers arrive), and Node's fetch
 * shares one connection pool between all of them, which can queue a request on a connection
 * still busy with another user's stream until that stream ends (bench/scripts/first-event-trace.mjs
 * measured the wait before the server even accepted the request: seconds at 200 streams). The
 * server sees what N browsers would send: N connections, one request each at once.
 */
export function userClient(apiUrl) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const fetchOverOwnConnection = (input, init = {}) =>
    new Promise((resolve, reject) => {
      const url = typeof input === "string" || input instanceof URL ? String(input) : input.url;
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const req = http.request(url, { method: init.method ?? "GET", headers, agent, signal: init.signal ?? undefined }, (res) => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) for (const one of [v].flat()) if (one !== undefined) out.append(k, one);
        const body = res.statusCode === 204 || res.statusCode === 304 ? null : Readable.toWeb(res);
        resolve(new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers: out }));
      });
      req.on("error", reject);
      req.end(init.body ?? undefined);
    });
  const client = new Client({ apiUrl, callerOptions: { maxRetries: 0, maxConcurrency: Infinity, fetch: fetchOverOwnConnection } });
  return { client, close: () => agent.destroy() };
}
