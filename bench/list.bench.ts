import { afterAll, beforeAll, bench, describe } from "vitest";
import { createHarness, human, type Harness } from "@/lib/server/test-harness";

// One sidebar page of 100 conversations, three ways, on the same 300 threads that each ran a
// real first exchange: our lean page (registry only), a standard page (registry values
// snapshot), and the naive per-row state read many chat UIs do (one checkpoint read per row).
const THREADS = 300;
const PAGE = 100;
let h: Harness;
let ids: string[] = [];

beforeAll(async () => {
  h = createHarness();
  for (let i = 0; i < THREADS; i++) {
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human(`Question number ${i} about sourdough baking`) });
    ids.push(t.thread_id);
  }
  ids = ids.slice(0, PAGE);
}, 300_000);

afterAll(() => h?.close());

describe(`sidebar page of ${PAGE} titles (${THREADS} threads)`, () => {
  bench("lean: select + extract title (one request)", async () => {
    await h.client.threads.search({
      limit: PAGE,
      sortBy: "updated_at",
      sortOrder: "desc",
      select: ["thread_id", "created_at", "updated_at", "status", "metadata"],
      extract: { title: "values.title", title_source: "values.title_source" },
    });
  });
  bench("standard: full thread objects with values (one request)", async () => {
    await h.client.threads.search({ limit: PAGE, sortBy: "updated_at", sortOrder: "desc" });
  });
  bench("naive: ids, then getState per row (101 requests)", async () => {
    await h.client.threads.search({ limit: PAGE, select: ["thread_id"] });
    await Promise.all(ids.map((id) => h.client.threads.getState(id)));
  });
});
