#!/usr/bin/env node
// A server that does no work: it answers `POST /threads` and `POST /threads/:id/runs/stream` with
// bytes recorded from Threadline (see stream-client-floor.mjs), the stream's chunks at their
// recorded pace. Run as its own process so that, as with Threadline, the client's CPU and the
// server's are separate. The Next app doing no work (bench/lib/bare-next.mjs) replays the same way
// through `next start`: keep the two alike.
//   node bench/scripts/replay-server.mjs <recording.json>   → prints "PORT <n>"
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";

const rec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.method === "POST" && req.url === "/threads") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ ...rec.thread, thread_id: randomUUID() }));
      return;
    }
    if (req.method === "POST" && /^\/threads\/[^/]+\/runs\/stream$/.test(req.url)) {
      res.writeHead(200, rec.streamHeaders);
      const start = performance.now();
      let i = 0;
      let timer;
      res.on("close", () => clearTimeout(timer)); // a client that left gets nothing more
      const next = () => {
        // Every chunk that is due goes out now; a late timer never reorders or drops one.
        while (i < rec.chunks.length && rec.chunks[i].at <= performance.now() - start) res.write(rec.chunks[i++].text);
        const due = i < rec.chunks.length ? rec.chunks[i].at : rec.endAt;
        if (i === rec.chunks.length && due <= performance.now() - start) res.end();
        else timer = setTimeout(next, due - (performance.now() - start));
      };
      next();
      return;
    }
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ detail: `not served here: ${req.method} ${req.url}` }));
  });
});
server.listen(0, "127.0.0.1", () => console.log(`PORT ${server.address().port}`));
