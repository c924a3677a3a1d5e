import http from "node:http";
import { Readable } from "node:stream";
import { Client } from "@langchain/langgraph-sdk";

/**
 * An SDK Client as one user's browser tab has it for workload 6 ("N users press Send at once"):
 * its own keep-alive connection (node:http with an Agent of its own) and no SDK cap on requests in
 * flight; the server sees what N browsers would send, N connections with one request each.
 * Why not one shared Client over Node's fetch, as before: from one process, its N requests reached
 * the server late, bench/scripts/first-event-trace.mjs --shared measured seconds at 200 streams
 * from the client's send to the server accepting the connection (p50 4.2 s; 3.6 s with the SDK's
 * default cap of 4 requests in flight lifted, --shared-uncapped), against 36 ms this way. (An
 * earlier note ruled out the cap alone and one Client per stream over fetch: the transport is
 * what changed it.) A second request of one user waits for its first's connection (maxSockets 1).
 */
export function userClient(apiUrl) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const fetchOverOwnConnection = (input, init = {}) =>
    new Promise((resolve, reject) => {
      const url = typeof input === "string" || input instanceof URL ? String(input) : input.url;
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const req = http.request(url, { method: init.method ?? "GET", headers, agent, signal: init.signal ?? undefined }, (res) => {
        try {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) for (const one of [v].flat()) if (one !== undefined) out.append(k, one);
          const empty = [204, 205, 304].includes(res.statusCode);
          // An answer with no body is still read to its end, or its connection is never free again.
          if (empty) res.resume();
          const body = empty ? null : Readable.toWeb(res);
          resolve(new Response(body, { status: res.statusCode, statusText: res.statusMessage, headers: out }));
        } catch (err) {
          res.destroy();
          reject(err);
        }
      });
      // As fetch fails: a TypeError whose cause is the socket's error (the SDK's retry test reads it).
      req.on("error", (err) => reject(err.name === "AbortError" ? err : new TypeError("fetch failed", { cause: err })));
      req.end(init.body ?? undefined);
    });
  const client = new Client({ apiUrl, callerOptions: { maxRetries: 0, maxConcurrency: Infinity, fetch: fetchOverOwnConnection } });
  // `fetch` too, for the test of what it hands the SDK.
  return { client, fetch: fetchOverOwnConnection, close: () => agent.destroy() };
}
