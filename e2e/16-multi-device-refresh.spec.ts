import { apiClient, expect, test } from "./support";

// One person, two devices: the SDK plays the other device. Coming back to this window (focus,
// network back) reads the first page again, so what was done elsewhere shows without a reload.
test("a conversation made and renamed on another device shows when the window regains focus or the network returns", async ({ page, sidebar }) => {
  const other = apiClient();
  await page.goto("/");
  await expect(page.getByTestId("sidebar")).toBeVisible();

  const thread = await other.threads.create();
  await other.threads.updateState(thread.thread_id, { values: { title: "Made on my phone" } });
  // Without a return to the window nothing is refetched (the list is cached).
  await page.waitForTimeout(1_000);
  await expect(sidebar.rowTitle(thread.thread_id)).toHaveCount(0);

  // Past the refresh throttle, then the window comes back.
  await page.waitForTimeout(5_000);
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(sidebar.rowTitle(thread.thread_id)).toHaveText("Made on my phone");

  await other.threads.updateState(thread.thread_id, { values: { title: "Renamed on my phone" } });
  await page.waitForTimeout(5_500);
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect(sidebar.rowTitle(thread.thread_id)).toHaveText("Renamed on my phone");
});
