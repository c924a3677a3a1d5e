import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, createHarness, human, type Harness } from "../test-harness";
import { READ_PAST_LIMIT } from "./body";

/** Issue 9: no title rule bypassed, no graph internals reachable, every limit a 4xx. */
let h: Harness;
let t: string;
const PINNED = { title: "Pinned by the user", title_source: { kind: "user" } };

beforeAll(async () => {
  h = createHarness();
  t = (await h.client.threads.create()).thread_id;
  await h.client.runs.wait(t, "agent", { input: human("Plan a trip to Lisbon") });
  await h.client.threads.updateState(t, { values: { title: PINNED.title } });
});
afterAll(async () => h.close());

type Values = { title: string | null; title_source: { kind: string } | null; messages: unknown[] };
const stateOf = async (id = t) => (await h.client.threads.getState<Values>(id)).values;
const rejection = async (p: Promise<unknown>) => {
  const err = (await p.then(
    () => null,
    (e: unknown) => e,
  )) as { status?: number; text?: string } | null;
  return { status: err?.status, detail: err?.text ? (JSON.parse(err.text) as { detail: string }).detail : undefined };
};
const json = (body: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
async function send(path: string, init: RequestInit) {
  const res = await h.fetch(path, init);
  const text = await res.text();
  return { status: res.status, detail: text ? ((JSON.parse(text) as { detail?: string }).detail ?? null) : null };
}

const CHUNK = 64 * 1024;
/** A request body of `total` bytes (endless by default) sent in 64 KiB chunks, counting how much the server pulled. */
function countingBody(total = Infinity) {
  let pulled = 0;
  const chunk = new Uint8Array(CHUNK).fill(32);
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled >= total) return c.close();
      pulled += chunk.byteLength;
      c.enqueue(chunk);
    },
  });
  return { body, pulled: () => pulled };
}

describe("titles change only through rename, regenerate and the middleware", () => {
  it("refuses title / title_source in run input, command.update (object or pairs) with 422", async () => {
    const attempts = [
      h.client.runs.wait(t, "agent", { input: { ...human("hi"), title: "\u202Eevil", title_source: { kind: "user" } } }),
      h.client.runs.wait(t, "agent", { input: { ...human("hi"), title_source: { kind: "user" } } }),
      h.client.runs.wait(t, "agent", { command: { update: { title: "x".repeat(5000), title_source: { kind: "user" } } } }),
      h.client.runs.wait(t, "agent", { command: { update: [["title", "via pairs"]] } }),
      h.client.runs.wait(t, "agent", { input: { ...human("hi"), jumpTo: "end" } }),
    ];
    for (const p of attempts) {
      const r = await rejection(p);
      expect(r.status).toBe(422);
      expect(r.detail).toMatch(/^title-invalid: (input|command\.update) may not set title|not a state key a client may write/);
    }
    expect(await stateOf()).toMatchObject(PINNED);
    expect((await h.client.runs.list(t)).length).toBe(1);
  });

  it("refuses title_source, mixed keys and as_node tricks in POST /threads/:id/state; rename and message updates still work", async () => {
    const refused = [
      { values: { title_source: { kind: "fallback" } } },
      { values: { title: "Mine", title_source: { kind: "user" } } },
      { values: { title: "Mine" }, asNode: "model_request" },
      { values: { messages: [], title_source: { kind: "user" } }, asNode: "TitleMiddleware.after_model" },
      { values: { jumpTo: "end" } },
      { values: { messages: [] }, asNode: "__copy__" },
      { values: { messages: [] }, asNode: "constructor" },
      { values: { messages: [5] } },
    ];
    for (const body of refused) {
      const r = await rejection(h.client.threads.updateState(t, body as never));
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.detail).not.toMatch(/Unable to coerce|InvalidUpdateError|Expected node/);
    }
    for (const key of ["__proto__", "\\u005f_proto__"]) {
      const r = await send(`/threads/${t}/state`, { ...json({}), body: `{"values":{"${key}":{"title":"x"}}}` });
      expect(r.status, key).toBe(422);
    }
    expect(await stateOf()).toMatchObject(PINNED);

    const renamed = (await h.client.threads.updateState(t, { values: { title: " Lisbon\u202E plan " } })) as unknown as Record<string, unknown>;
    expect(renamed).toMatchObject({ title: "Lisbon plan", title_source: { kind: "user" } });
    await h.client.threads.updateState(t, { values: { messages: [{ type: "human", content: "a note" }] } });
    const after = await stateOf();
    expect(after).toMatchObject({ title: "Lisbon plan", title_source: { kind: "user" } });
    expect(after.messages.length).toBe(3);
    await h.client.threads.updateState(t, { values: { title: PINNED.title } });
  });
});

describe("config.configurable and context are the server's", () => {
  it("refuses checkpoint addressing, __pregel_* and unknown keys in configurable; thread_id must be the path's", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ checkpoint_id: "1f000000-0000-6000-8000-000000000000" }, /checkpoint_id is reserved/],
      [{ checkpoint_ns: "x" }, /checkpoint_ns is reserved/],
      [{ __pregel_scratchpad: {} }, /reserved for the graph runtime/],
      [{ thread_id: "another-thread" }, /thread_id must equal/],
      [{ model: "gpt-9" }, /not supported \(allowed: thread_id\)/],
    ];
    for (const [configurable, detail] of cases) {
      const r = await rejection(h.client.runs.wait(t, "agent", { input: human("x"), config: { configurable } }));
      expect(r.status, JSON.stringify(configurable)).toBe(422);
      expect(r.detail).toMatch(detail);
    }
    expect((await h.client.runs.list(t)).length).toBe(1);
  });

  it("refuses host-owned context keys", async () => {
    for (const context of [{ readTitlePin: "user" }, { recordTitleRequest: "x" }, { __secret: 1 }]) {
      const r = await rejection(h.client.runs.wait(t, "agent", { input: human("x"), context }));
      expect(r.status).toBe(422);
    }
  });

  it("still runs what useStream sends: thread_id in configurable, the checkpoint as the top-level field", async () => {
    const other = (await h.client.threads.create()).thread_id;
    await h.client.runs.wait(other, "agent", { input: human("First"), config: { configurable: { thread_id: other } } });
    const [head] = await h.client.threads.getHistory(other, { limit: 1 });
    await h.client.runs.wait(other, "agent", { input: human("Again"), checkpoint: head.checkpoint, config: { configurable: { thread_id: other } } });
    expect((await h.client.runs.list(other)).map((r) => r.status)).toEqual(["success", "success"]);
    const missing = await rejection(h.client.runs.wait(other, "agent", { input: human("x"), checkpoint: { checkpoint_id: "1f000000-0000-6000-8000-000000000000", checkpoint_ns: "", checkpoint_map: null } }));
    expect(missing.status).toBe(404);
  });
});

describe("limits", () => {
  it("caps bodies at 1 MiB (413 naming the limit), run creation at 25 MiB", async () => {
    const big = { metadata: { blob: "x".repeat(1024 * 1024) } };
    const res = await h.fetch("/threads", json(big));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ detail: "Request body is larger than the limit of 1 MiB (1048576 bytes)" });
    // Every 413 closes the connection: a body far past the cap is left unread, and that rest
    // would otherwise break the client's next request on the same keep-alive socket.
    expect(res.headers.get("connection")).toBe("close");

    const other = (await h.client.threads.create()).thread_id;
    const attachment = "a".repeat(2 * 1024 * 1024);
    const ok = await send(`/threads/${other}/runs/wait`, json({ assistant_id: "agent", input: human(attachment) }));
    expect(ok.status).toBe(200);
  });

  it("reads the body as a stream and stops 1 MiB past the cap, whatever Content-Length says", async () => {
    const endless = countingBody();
    const init = { method: "POST", headers: { "content-type": "application/json", "content-length": "2" }, body: endless.body, duplex: "half" };
    const r = await send(`/threads/${t}/runs/stream`, init as RequestInit);
    expect(r.status).toBe(413);
    expect(r.detail).toMatch(/25 MiB/);
    // Read past the cap by READ_PAST_LIMIT at most (so a body a little over it is read to its end), then no more.
    expect(endless.pulled()).toBeGreaterThan(25 * 1024 * 1024 + READ_PAST_LIMIT);
    expect(endless.pulled()).toBeLessThan(25 * 1024 * 1024 + READ_PAST_LIMIT + 4 * CHUNK);
  });

  it("reads a body a little past the cap to its end before the 413 (so a client still sending can read the answer)", async () => {
    const total = 1024 * 1024 + 256 * 1024;
    const slightlyOver = countingBody(total);
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: slightlyOver.body, duplex: "half" };
    const r = await send(`/threads/${t}/history`, init as RequestInit);
    expect(r.status).toBe(413);
    expect(slightlyOver.pulled()).toBe(total);
  });

  it("with a declared Content-Length over the cap: reads the body to its end when it is at most 1 MiB past, refuses at once past that", async () => {
    const declaring = async (declared: number) => {
      const sent = countingBody(declared);
      const init = { method: "POST", headers: { "content-type": "application/json", "content-length": String(declared) }, body: sent.body, duplex: "half" };
      const r = await send(`/threads/${t}/history`, init as RequestInit);
      return { status: r.status, pulled: sent.pulled() };
    };
    const near = await declaring(1024 * 1024 + 256 * 1024);
    expect(near).toEqual({ status: 413, pulled: 1024 * 1024 + 256 * 1024 });
    const far = await declaring(4 * 1024 * 1024);
    expect(far.status).toBe(413);
    expect(far.pulled).toBeLessThan(1024 * 1024);
  });

  it("refuses JSON nested deeper than 32 levels, filters with too many keys, offsets past 1,000,000", async () => {
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    expect((await send("/threads", { ...json({}), body: `{"metadata":{"a":${deep(40)}}}` })).status).toBe(422);
    const metadata = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i]));
    expect((await rejection(h.client.threads.search({ metadata }))).status).toBe(422);
    expect((await rejection(h.client.threads.search({ offset: 1_000_001 }))).status).toBe(422);
    expect((await rejection(h.client.threads.getHistory(t, { metadata: { "a[": 1 } }))).status).toBe(422);
  });

  it("validates thread ids everywhere, also when a run creates its thread", async () => {
    for (const id of ["a.b", "a:b", "a b", "x".repeat(129), "é"]) {
      const path = `/threads/${encodeURIComponent(id)}`;
      expect((await send(path, { method: "GET" })).status, id).toBe(422);
      expect((await send(`${path}/runs/wait`, json({ assistant_id: "agent", input: human("x"), if_not_exists: "create" }))).status, id).toBe(422);
      expect((await rejection(h.client.threads.create({ threadId: id }))).status, id).toBe(422);
    }
    const ids = (await h.client.threads.search({ limit: 100 })).map((x) => x.thread_id);
    expect(ids.every((id) => /^[A-Za-z0-9_-]{1,128}$/.test(id))).toBe(true);
  });

  it("wants JSON for bodies (415), while bodiless POSTs like cancel keep working", async () => {
    const r = await send("/threads", { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify({ metadata: { via: "text" } }) });
    expect(r.status).toBe(415);
    expect(await h.client.threads.count({ metadata: { via: "text" } })).toBe(0);
    const other = (await h.client.threads.create()).thread_id;
    const run = await h.client.runs.create(other, "agent", { input: human("x") });
    expect((await h.fetch(`/threads/${other}/runs/${run.run_id}/cancel?wait=1`, { method: "POST" })).status).toBe(204);
  });

  it("a write that declares a non-JSON type is 415 even with an empty body; the SDK's bodiless calls still pass", async () => {
    const own = (await h.client.threads.create()).thread_id;
    const run = await h.client.runs.create(own, "agent", { input: human("x") });
    const forms = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"];
    for (const type of forms) {
      for (const [method, path] of [["POST", "/threads"], ["POST", `/threads/${own}/runs/${run.run_id}/cancel`], ["DELETE", `/threads/${own}`]]) {
        const r = await send(path, { method, headers: { "content-type": type } });
        expect(r, `${method} ${path} ${type}`).toEqual({ status: 415, detail: expect.stringContaining("JSON") });
      }
    }
    const before = await h.client.threads.count();
    expect((await h.client.threads.get(own)).thread_id).toBe(own); // not deleted
    expect((await send("/threads", { method: "POST", headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect(await h.client.threads.count()).toBe(before); // nothing created
    // A read may say what it likes; the SDK's cancel and delete send no type and no body.
    expect((await send(`/threads/${own}`, { headers: { "content-type": "text/plain" } })).status).toBe(200);
    await h.client.runs.cancel(own, run.run_id, true);
    await h.client.threads.delete(own);
    await expect(h.client.threads.get(own)).rejects.toMatchObject({ status: 404 });
  });
});

describe("joining a run whose events are gone", () => {
  it("is a 404 after a restart (the SDK's joinStream raises), not an empty 200 stream", async () => {
    const own = createHarness();
    const th = (await own.client.threads.create()).thread_id;
    const run = await own.client.runs.create(th, "agent", { input: human("hello") });
    await own.client.runs.join(th, run.run_id);
    expect((await collect(own.client.runs.joinStream(th, run.run_id))).length).toBeGreaterThan(0);
    const dir = own.dir;
    await own.api.runs.drainAll();
    await own.crash();
    const again = createHarness({ dir });
    try {
      const r = await rejection(collect(again.client.runs.joinStream(th, run.run_id)));
      expect(r.status).toBe(404);
      expect((await again.client.runs.get(th, run.run_id)).status).toBe("success");
    } finally {
      await again.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
