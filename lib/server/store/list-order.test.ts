import { afterEach, describe, expect, it } from "vitest";
import { FIRST_PAGE, fetchThreadPage } from "@/lib/client/thread-pages";
import { createHarness, human, type Harness } from "../test-harness";
import { sidebarQuery } from "./thread-query";

let h: Harness;
afterEach(async () => h?.close());

/** The sidebar's own request (lib/client), through the SDK. */
const sidebarOrder = async () => (await fetchThreadPage(h.client, FIRST_PAGE, "")).rows.map((r) => r.id);

async function threeConversations() {
  const ids: string[] = [];
  for (const text of ["Oldest question", "Middle question", "Newest question"]) {
    const t = await h.client.threads.create();
    await h.client.runs.wait(t.thread_id, "agent", { input: human(text) });
    ids.push(t.thread_id);
  }
  return ids;
}

describe("list order: only the conversation moving is activity", () => {
  it("a rename, a star or a regenerated title leaves an older thread where it is", async () => {
    h = createHarness();
    const [oldest, middle, newest] = await threeConversations();
    expect(await sidebarOrder()).toEqual([newest, middle, oldest]);

    await h.client.threads.updateState(oldest, { values: { title: "Renamed, not active" } });
    await h.client.threads.update(middle, { metadata: { starred: true } });
    const regen = await h.fetch(`/threads/${oldest}/title/regenerate`, { method: "POST" });
    expect(regen.status).toBe(200);

    expect(await sidebarOrder()).toEqual([newest, middle, oldest]);
  });

  it("a message moves the thread to the top", async () => {
    h = createHarness();
    const [oldest, middle, newest] = await threeConversations();
    await h.client.runs.wait(oldest, "agent", { input: human("One more thing") });
    expect(await sidebarOrder()).toEqual([oldest, newest, middle]);
  });

  it("updated_at keeps LangGraph's meaning (any change); activity_at moves only with the conversation", async () => {
    h = createHarness();
    const [oldest] = await threeConversations();
    const before = await h.client.threads.get(oldest);
    await h.client.threads.updateState(oldest, { values: { title: "Renamed" } });
    const after = (await h.client.threads.get(oldest)) as typeof before & { activity_at: string };
    expect(after.updated_at > before.updated_at).toBe(true);
    expect(after.activity_at).toMatch(/^\d{4}-/);
    expect(after.activity_at).toBe((before as typeof after).activity_at);

    const byUpdated = await h.client.threads.search({ sortBy: "updated_at", sortOrder: "desc", limit: 1 });
    expect(byUpdated[0].thread_id).toBe(oldest);
  });

  it("$as_of paging ignores a rename between pages", async () => {
    h = createHarness();
    const ids = await threeConversations();
    const first = await fetchThreadPage(h.client, FIRST_PAGE, "", { limit: 1 });
    await h.client.threads.updateState(ids[0], { values: { title: "Renamed while paging" } });
    await h.client.runs.wait(ids[1], "agent", { input: human("Moves, but after the snapshot") });
    const second = await fetchThreadPage(h.client, { offset: 1, asOf: first.asOf }, "", { limit: 2 });
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it("$as_of paging of a title search sorts a match active since the snapshot by its activity then (SDK, narrow search)", async () => {
    h = createHarness();
    const ids = await threeConversations();
    const first = await fetchThreadPage(h.client, FIRST_PAGE, "question", { limit: 1 });
    expect(first.rows.map((r) => r.id)).toEqual([ids[2]]);
    await h.client.runs.wait(ids[1], "agent", { input: human("Moves, but after the snapshot") });
    // A page larger than the matches: the store starts from the index's matches ("narrow").
    const next = { offset: 1, asOf: first.asOf };
    expect(await h.api.q.titlePlan(sidebarQuery(first.asOf, { titleSearch: "question", offset: 1, limit: 5 }))).toBe("narrow");
    const second = await fetchThreadPage(h.client, next, "question", { limit: 5 });
    expect(second.rows.map((r) => r.id)).toEqual([ids[1], ids[0]]);
    // Now, without the snapshot, it leads.
    expect((await fetchThreadPage(h.client, FIRST_PAGE, "question")).rows.map((r) => r.id)).toEqual([ids[1], ids[2], ids[0]]);
  });
});
