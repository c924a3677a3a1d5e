import { afterEach, describe, expect, it } from "vitest";
import { createHarness, human, type Harness } from "@/lib/server/test-harness";
import { FIRST_PAGE, fetchThreadPage, nextPageParam } from "./thread-pages";
import type { ThreadPage } from "./types";

let h: Harness;
afterEach(() => h?.close());

async function seed(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const t = await h.client.threads.create({ metadata: { i } });
    await h.client.threads.updateState(t.thread_id, { values: { title: `Thread ${i}` } });
    ids.push(t.thread_id);
  }
  return ids;
}

async function pageThrough(between: (page: ThreadPage, index: number) => Promise<void>) {
  const seen: string[] = [];
  let param = FIRST_PAGE;
  for (let i = 0; i < 20; i++) {
    const page = await fetchThreadPage(h.client, param, "", { limit: 20 });
    seen.push(...page.rows.map((r) => r.id));
    await between(page, i);
    const next = nextPageParam(page);
    if (!next) break;
    param = next;
  }
  return seen;
}

describe("sidebar paging through the real API", () => {
  it("skips no thread while threads are updated and others are deleted (overlap duplicates are deduped by the list model)", async () => {
    h = createHarness();
    const ids = await seed(70);
    const deleted = new Set<string>();
    const seen = await pageThrough(async (page, index) => {
      if (index > 1) return;
      // Someone else writes in a thread further down (it moves to the top) and deletes two rows
      // from the page just read.
      await h.client.runs.wait(ids[5], "agent", { input: human("Moved by activity") });
      for (const row of page.rows.slice(0, 2)) {
        await h.client.threads.delete(row.id);
        deleted.add(row.id);
      }
    });
    const remaining = ids.filter((id) => !deleted.has(id));
    expect(new Set(seen)).toEqual(new Set([...remaining, ...deleted]));
    expect(remaining.every((id) => seen.includes(id))).toBe(true);
  });
});

describe("a search text longer than the API takes", () => {
  it("is cut to it, not refused: a pasted 700-character text still searches", async () => {
    h = createHarness();
    await seed(3);
    const page = await fetchThreadPage(h.client, FIRST_PAGE, "Thread ".repeat(100));
    expect(page.rows.map((r) => r.title.title).sort()).toEqual(["Thread 0", "Thread 1", "Thread 2"]);
  });
});
