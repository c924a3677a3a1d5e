import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, human } from "../test-harness";
import { clientWithCookie, signUp } from "./session-testing";

/** Switching a deployment from local mode to accounts keeps its conversations: the first account gets them. */
const dirs: string[] = [];
const dataDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-adopt-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function localThreads(dir: string, texts: string[]) {
  const local = createHarness({ dir });
  try {
    const ids: string[] = [];
    for (const text of texts) {
      const t = await local.client.threads.create({ metadata: { topic: "kept" } });
      await local.client.runs.wait(t.thread_id, "agent", { input: human(text) });
      ids.push(t.thread_id);
    }
    await local.client.threads.updateState(ids[0], { values: { title: "Pinned before accounts" } });
    return ids;
  } finally {
    await local.close();
  }
}

describe("local → accounts", () => {
  it("the first account created gets every local-mode thread (titles and pins kept); the second gets none", async () => {
    const dir = dataDir();
    const ids = await localThreads(dir, ["Plan a trip to Porto", "Bake sourdough bread"]);
    const h = createHarness({ dir, authMode: "accounts" });
    try {
      await h.api.ready;
      // No account yet: nobody owns them, nobody can see them.
      for (const id of ids) expect(JSON.parse((await h.api.q.getThread(id))!.metadata).owner).toBeUndefined();
      const a = await signUp(h.api, "first@example.com");
      const b = await signUp(h.api, "second@example.com");
      const asA = clientWithCookie(h.api, a.cookie);
      const asB = clientWithCookie(h.api, b.cookie);
      const mine = await asA.threads.search({ limit: 10 });
      expect(mine.map((r) => r.thread_id).sort()).toEqual([...ids].sort());
      for (const r of mine) expect(r.metadata).toEqual({ topic: "kept", graph_id: "agent", assistant_id: "agent", owner: a.id });
      const pinned = await asA.threads.getState<{ title: string; title_source: { kind: string } }>(ids[0]);
      expect(pinned.values).toMatchObject({ title: "Pinned before accounts", title_source: { kind: "user" } });
      expect(await asB.threads.search({ limit: 10 })).toEqual([]);
      await expect(asB.threads.get(ids[0])).rejects.toMatchObject({ status: 404 });
      // Threads B makes stay B's: adoption only ever takes threads without an owner.
      const own = await asB.threads.create();
      expect(await h.api.q.adoptUnownedThreads()).toEqual({ owner: a.id, adopted: 0 });
      expect((await asB.threads.get(own.thread_id)).metadata).toEqual({ owner: b.id });
    } finally {
      await h.close();
    }
  }, 60_000);

  it("threads made in local mode after accounts existed go to the first account at the next start", async () => {
    const dir = dataDir();
    const first = createHarness({ dir, authMode: "accounts" });
    let a: { id: string; cookie: string };
    try {
      a = await signUp(first.api, "first@example.com");
      await signUp(first.api, "second@example.com");
    } finally {
      await first.close();
    }
    const [later] = await localThreads(dir, ["Written while back in local mode"]);
    const again = createHarness({ dir, authMode: "accounts" });
    try {
      await again.api.ready;
      const row = (await again.api.q.getThread(later))!;
      expect(JSON.parse(row.metadata)).toEqual({ topic: "kept", graph_id: "agent", assistant_id: "agent", owner: a.id });
      expect((await clientWithCookie(again.api, a.cookie).threads.get(later)).thread_id).toBe(later);
    } finally {
      await again.close();
    }
  }, 60_000);

  it("without any account, adoption does nothing", async () => {
    const dir = dataDir();
    const ids = await localThreads(dir, ["hello"]);
    const h = createHarness({ dir, authMode: "accounts" });
    try {
      await h.api.ready;
      expect(await h.api.q.adoptUnownedThreads()).toBeNull();
      const [id] = ids;
      const row = (await h.api.q.getThread(id))!;
      expect(JSON.parse(row.metadata)).toEqual({ topic: "kept", graph_id: "agent", assistant_id: "agent" });
    } finally {
      await h.close();
    }
  }, 30_000);
});
