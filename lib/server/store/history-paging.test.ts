import { afterEach, describe, expect, it } from "vitest";
import { createHarness, human, type Harness } from "../test-harness";

let h: Harness;
afterEach(async () => h?.close());

describe("history paging", () => {
  it("pages with `before` in every shape a client sends: the SDK's Config, a checkpoint object, an id", async () => {
    h = createHarness();
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human("Page me") });
    await h.client.threads.updateState(t.thread_id, { values: { title: "Renamed" } });
    const all = await h.client.threads.getHistory(t.thread_id, { limit: 100 });
    expect(all.length).toBeGreaterThan(3);
    const ids = all.map((s) => s.checkpoint.checkpoint_id);
    const first = ids[1]!;
    const shapes = [{ configurable: { checkpoint_id: first } }, { checkpoint_id: first }, first];
    for (const before of shapes) {
      const page = await h.client.threads.getHistory(t.thread_id, { limit: 2, before: before as never });
      expect(page.map((s) => s.checkpoint.checkpoint_id), JSON.stringify(before)).toEqual(ids.slice(2, 4));
    }
  });
});
