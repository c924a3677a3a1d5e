import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { apiClient, expect, fallbackTitle, test } from "./support";

type TitleValues = { title: string | null; title_source: { kind: string; model?: string } | null };

async function titleFromApi(threadId: string) {
  const state = await apiClient().threads.getState<TitleValues>(threadId);
  return { title: state.values.title, title_source: state.values.title_source };
}

function historyPanel(page: Page) {
  const panel = page.getByTestId("title-history");
  return { panel, revisions: panel.getByTestId("title-revision") };
}

test("title history lists every revision with its source and restores one as the user's title", async ({ page, chat, sidebar }) => {
  const text = "Suggest a three day itinerary for Lisbon";
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await sidebar.rename(id, "Lisbon trip");
  await sidebar.rename(id, "Lisbon in May");

  await sidebar.menuItem(id, "menu-title-history");
  const { panel, revisions } = historyPanel(page);
  await expect(panel).toBeVisible();
  await expect(panel.getByRole("heading", { name: "Title history" })).toBeVisible();
  await expect(revisions).toHaveCount(3);
  await expect(revisions.getByTestId("title-revision-title")).toHaveText(["Lisbon in May", "Lisbon trip", fallbackTitle(text)]);
  await expect(revisions.getByTestId("title-revision-source")).toHaveText(["Named by you", "Named by you", "From your first message"]);
  await expect(revisions.first()).toHaveAttribute("data-current", "true");
  await expect(revisions.locator("time")).toHaveCount(3);

  // Accessible dialog: no axe violations, focus is inside, Escape closes, focus returns to the row's menu button.
  const axe = await new AxeBuilder({ page }).include('[data-testid="title-history"]').analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
  await expect(panel.locator(":focus")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(sidebar.row(id).getByTestId("row-menu-button")).toBeFocused();

  // Restore the first title: it becomes the user's own (pinned).
  await sidebar.menuItem(id, "menu-title-history");
  await expect(revisions).toHaveCount(3);
  await revisions.nth(2).getByRole("button").click();
  await expect(panel).toBeHidden();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(sidebar.rowLock(id)).toBeVisible();
  await chat.expectTitle(fallbackTitle(text));
  expect(await titleFromApi(id)).toEqual({ title: fallbackTitle(text), title_source: { kind: "user" } });

  // The chat header opens the same panel; the restore is the newest revision now.
  await page.getByTestId("header-title-history").click();
  await expect(revisions).toHaveCount(4);
  await expect(revisions.first().getByTestId("title-revision-source")).toHaveText("Named by you");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("header-title-history")).toBeFocused();
});

test("the rename toast's Undo restores the previous title with its original source", async ({ page, chat, sidebar }) => {
  const text = "How do I keep basil alive indoors";
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  expect(await titleFromApi(id)).toEqual({ title: fallbackTitle(text), title_source: { kind: "fallback" } });

  await sidebar.rename(id, "Basil care");
  await expect(sidebar.rowLock(id)).toBeVisible();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Renamed to “Basil care”" });
  await expect(toast).toBeVisible();
  // On a desktop window the toast keeps off the sidebar's rows (it settles after sliding in).
  await expect
    .poll(async () => {
      const [t, aside] = await Promise.all([toast.boundingBox(), sidebar.root.boundingBox()]);
      return t!.x >= aside!.x + aside!.width;
    })
    .toBe(true);
  await toast.getByRole("button", { name: "Undo" }).click();

  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(sidebar.rowLock(id)).toHaveCount(0);
  await expect(sidebar.row(id)).toHaveAttribute("data-title-source", "fallback");
  await chat.expectTitle(fallbackTitle(text));
  // Unpinned again: the original (automatic) source is back, not a user title with the old text.
  expect(await titleFromApi(id)).toEqual({ title: fallbackTitle(text), title_source: { kind: "fallback" } });

  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(sidebar.rowLock(id)).toHaveCount(0);
});

test("after a toast's Undo the focus goes back at once: a menu opened right after stays open, and typing goes on in the box", async ({ page, chat, sidebar }) => {
  const text = "Which herbs grow on a north-facing windowsill";
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  const undo = () => page.locator("[data-sonner-toast]").getByRole("button", { name: "Undo" });

  // Sonner hands the focus back when its last toast has gone (~200 ms after the click): without
  // the hand-back at the click, that closes a menu opened in the meantime.
  await sidebar.rename(id, "Shade herbs");
  await undo().click();
  await sidebar.openMenu(id);
  await page.waitForTimeout(600);
  await expect(page.getByTestId("row-menu")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));

  // Nor does it take the caret from the message box the user went on to type in.
  await sidebar.rename(id, "Shade herbs");
  await undo().click();
  await chat.input.click();
  await page.keyboard.type("mint and parsley", { delay: 60 });
  await expect(chat.input).toBeFocused();
  await expect(chat.input).toHaveValue("mint and parsley");
});

test("a rename made while the answer streams offers Undo too, which brings the first message's title back once the answer is finished", async ({ page, chat, sidebar }) => {
  const text = "Explain how a ground source heat pump is installed, step by step, for a homeowner";
  const id = await chat.startConversation(text);
  // The server's title, not the browser's instant one (no Undo to a title still being worked out).
  await expect(sidebar.row(id)).toHaveAttribute("data-title-source", "fallback");
  await expect(sidebar.row(id)).not.toHaveAttribute("data-pending", "true");
  expect(await chat.isStreaming()).toBe(true);

  await sidebar.rename(id, "Ground heat");
  await page.locator("[data-sonner-toast]").filter({ hasText: "Renamed to “Ground heat”" }).getByRole("button", { name: "Undo" }).click();
  const waiting = page.locator("[data-sonner-toast]").filter({ hasText: `The title goes back to “${fallbackTitle(text)}” when the answer is finished.` });
  await expect(waiting).toBeVisible();
  expect(await chat.isStreaming(), "undone while the answer was still streaming").toBe(true);

  await chat.waitForAnswerToFinish();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(sidebar.rowLock(id)).toHaveCount(0);
  await expect(sidebar.row(id)).toHaveAttribute("data-title-source", "fallback");
  await expect(waiting).toHaveCount(0);
  expect(await titleFromApi(id)).toEqual({ title: fallbackTitle(text), title_source: { kind: "fallback" } });
  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await expect(sidebar.rowLock(id)).toHaveCount(0);
});

test("a rename made while the answer streams is the current title in the history panel at once, and dated there once the answer is finished", async ({ page, chat, sidebar }) => {
  const text = "Describe how a lighthouse lens focuses light, for a curious child, in detail";
  const id = await chat.startConversation(text);
  await expect(sidebar.row(id)).toHaveAttribute("data-title-source", "fallback");
  await sidebar.rename(id, "Lighthouse lens");
  expect(await chat.isStreaming(), "renamed while the answer was still streaming").toBe(true);

  await sidebar.menuItem(id, "menu-title-history");
  const { panel, revisions } = historyPanel(page);
  await expect(revisions.getByTestId("title-revision-title")).toHaveText(["Lighthouse lens", fallbackTitle(text)]);
  await expect(revisions.getByTestId("title-revision-source")).toHaveText(["Named by you", "From your first message"]);
  await expect(revisions.first()).toHaveAttribute("data-current", "true");
  // Not written into the conversation yet, so not dated yet; the first message's title is.
  await expect(revisions.nth(0).locator("time")).toHaveCount(0);
  await expect(revisions.nth(1).locator("time")).toHaveCount(1);
  expect(await chat.isStreaming(), "the panel was read while the answer was still streaming").toBe(true);

  // Left open while the run ends: read again, the rename is in the conversation now, dated.
  await chat.waitForAnswerToFinish();
  await expect(revisions.locator("time")).toHaveCount(2);
  await expect(revisions.getByTestId("title-revision-title")).toHaveText(["Lighthouse lens", fallbackTitle(text)]);
  expect(await titleFromApi(id)).toEqual({ title: "Lighthouse lens", title_source: { kind: "user" } });
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
});

test("a search that finds a row by an earlier title says so on the row and in its tooltip", async ({ page, chat, sidebar }) => {
  const word = `quokka${Date.now().toString(36)}`;
  const text = `Seeing a ${word} near Perth`;
  const id = await chat.startConversation(text);
  await chat.waitForAnswerToFinish();
  await sidebar.rename(id, `Rottnest island ${word.toUpperCase()}X`);
  await sidebar.rename(id, "Rottnest island day trip");

  // Found by the first message's title, which it no longer shows.
  await sidebar.search.fill(`${word} perth`);
  await expect(sidebar.rows).toHaveCount(1);
  await expect(sidebar.rowTitle(id)).toHaveText("Rottnest island day trip");
  await expect(sidebar.row(id).getByTestId("earlier-title-match")).toBeVisible();
  await expect(sidebar.link(id)).toHaveAccessibleName(/Found by an earlier title/);
  await sidebar.link(id).hover();
  await expect(page.getByTestId("title-tooltip-note")).toHaveText("Found by an earlier title (see Title history)");

  // Found by the title it shows: nothing to explain.
  await sidebar.search.fill("rottnest day");
  await expect(sidebar.row(id)).toBeVisible();
  await expect(sidebar.row(id).getByTestId("earlier-title-match")).toHaveCount(0);
  await expect(sidebar.link(id)).not.toHaveAccessibleName(/earlier title/);

  // No search: no hint (once the whole list is back: more than the one row found).
  await sidebar.search.fill("");
  await expect.poll(() => sidebar.rows.count()).toBeGreaterThan(1);
  await expect(sidebar.row(id)).toBeVisible();
  await expect(sidebar.row(id).getByTestId("earlier-title-match")).toHaveCount(0);
});
