import { apiClient, expect, test } from "./support";
import type { Sidebar } from "./pages/Sidebar";

const human = (text: string) => ({ messages: [{ type: "human", content: text }] });

/** The listed order of the given threads (other specs' threads may sit between them). */
async function orderOf(sidebar: Sidebar, ids: string[]): Promise<string[]> {
  const listed = await sidebar.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-thread-id") ?? ""));
  return listed.filter((id) => ids.includes(id));
}

test("a rename leaves a conversation where it is, also after a reload; a message moves it to the top", async ({ page, chat, sidebar }) => {
  const client = apiClient();
  const ids: string[] = [];
  for (const text of ["Oldest: sourdough starter", "Middle: bike gears", "Newest: tax forms"]) {
    const t = await client.threads.create();
    await client.runs.wait(t.thread_id, "agent", { input: human(text) });
    ids.push(t.thread_id);
  }
  const [oldest, middle, newest] = ids;
  await chat.openNew();
  await expect.poll(() => orderOf(sidebar, ids)).toEqual([newest, middle, oldest]);

  await sidebar.rename(oldest, "Bread science");
  await expect(sidebar.rowTitle(oldest)).toHaveText("Bread science");
  // The row shows the rename before the server has it (optimistic); reload only once it does.
  await expect.poll(async () => ((await client.threads.get(oldest)).values as { title?: string }).title).toBe("Bread science");
  await page.reload();
  await expect(sidebar.rowTitle(oldest)).toHaveText("Bread science");
  expect(await orderOf(sidebar, ids)).toEqual([newest, middle, oldest]);

  await chat.open(oldest);
  await chat.send("How warm should the kitchen be?");
  await chat.waitForAnswerToFinish();
  await expect.poll(() => orderOf(sidebar, ids)).toEqual([oldest, newest, middle]);
  await page.reload();
  await expect(sidebar.rowTitle(oldest)).toHaveText("Bread science");
  expect(await orderOf(sidebar, ids)).toEqual([oldest, newest, middle]);
});
