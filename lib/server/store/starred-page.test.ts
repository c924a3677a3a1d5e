import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, type Harness } from "../test-harness";

// The sidebar's starred page reads the generated `starred` column (migration 4): it must mean
// exactly what the JSON test meant — metadata.starred is JSON true — and follow every change.
let h: Harness;
beforeAll(async () => {
  h = createHarness();
  await h.api.ready;
});
afterAll(async () => h?.close());

const starredPage = async () =>
  (
    await h.client.threads.search({
      metadata: { starred: true, $as_of: new Date(Date.now() + 60_000).toISOString() },
      sortBy: "activity_at" as never,
      sortOrder: "desc",
      limit: 50,
      select: ["thread_id"],
    })
  ).map((t) => t.thread_id);

describe("the starred page (metadata { starred: true })", () => {
  it("lists exactly the threads whose metadata.starred is JSON true, and follows star/unstar", async () => {
    const make = async (metadata?: Record<string, unknown>) => (await h.client.threads.create(metadata ? { metadata } : {})).thread_id;
    const yes = await make({ starred: true });
    const others = [await make({ starred: "true" }), await make({ starred: 1 }), await make({ starred: false }), await make({ starred: null }), await make({ other: true }), await make()];
    expect(await starredPage()).toEqual([yes]);

    await h.client.threads.update(others[3], { metadata: { starred: true } });
    expect(new Set(await starredPage())).toEqual(new Set([yes, others[3]]));
    await h.client.threads.update(yes, { metadata: { starred: false } });
    expect(await starredPage()).toEqual([others[3]]);
    // The other filters still compare the JSON itself: `starred: "true"` is a string match.
    const strings = await h.client.threads.search({ metadata: { starred: "true" }, select: ["thread_id"] });
    expect(strings.map((t) => t.thread_id)).toEqual([others[0]]);
  });
});
