import fs from "node:fs";
import path from "node:path";
import { expect, fallbackTitle, test } from "../support";

// Only under playwright.langgraph.config.ts (the app in front of langgraph dev). The LangSmith key
// the Next server sends upstream must never reach the browser, title search still works (answered by
// the Next server), and the other Threadline-only features say why they are unavailable.
const KEY = process.env.LG_E2E_KEY ?? "";

test("no response the browser gets, and no page's HTML, contains the server's key", async ({ page, chat, sidebar }) => {
  expect(KEY.length).toBeGreaterThan(20);
  const seen: Promise<string>[] = [];
  page.on("response", (res) => {
    seen.push(
      (async () => {
        const headers = Object.entries(await res.allHeaders()).map(([k, v]) => `${k}: ${v}`).join("\n");
        const body = await res.text().catch(() => "");
        return `${res.url()}\n${headers}\n${body}`;
      })(),
    );
  });
  const text = "Which houseplants like low light?";
  const id = await chat.startConversation(text);
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));
  await chat.waitForAnswerToFinish();
  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle(text));

  const all = await Promise.all(seen);
  expect(all.filter((s) => s.includes("/api/langgraph/")).length).toBeGreaterThanOrEqual(2);
  expect(all.some((s) => s.includes("/runs/stream"))).toBe(true);
  for (const s of all) expect(s).not.toContain(KEY);
  for (const url of ["/", `/c/${id}`]) expect(await (await page.request.get(url)).text()).not.toContain(KEY);
});

test("title search finds part of a title, and says how far it looked; history and regenerate say why they are unavailable", async ({ page, chat, sidebar }) => {
  const other = await chat.startConversation("Which houseplants like bright kitchens?");
  await chat.waitForAnswerToFinish();
  const id = await chat.startConversation("Recommend a good beginner telescope");
  await chat.waitForAnswerToFinish();
  await sidebar.rename(id, "Télescopes for beginners");
  await expect(sidebar.rowLock(id)).toBeVisible();
  await expect(page.getByTestId("title-announcer")).toContainText("Télescopes for beginners");
  // No "Renamed to …" toast with Undo (restore is a Threadline route); the embedded run shows one
  // at this point (e2e/11-title-history.spec.ts).
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

  // A LangGraph server cannot search titles: the Next server reads its newest threads and
  // matches them as our own index would (a word's start, accents and case folded).
  await sidebar.search.fill("telesc begin");
  await expect(sidebar.rowTitle(id)).toHaveText("Télescopes for beginners");
  await expect(sidebar.row(other)).toHaveCount(0);
  await expect(page.getByTestId("search-scope")).toContainText("5,000 most recently updated");
  await sidebar.search.fill("lescopes");
  await expect(page.getByTestId("list-empty")).toContainText("No titles match");
  await sidebar.search.fill("");
  await expect(sidebar.row(other)).toBeVisible();
  await expect(page.getByTestId("search-scope")).toHaveCount(0);

  await sidebar.openMenu(id);
  const regenerate = page.getByTestId("menu-regenerate");
  await expect(regenerate).toHaveAttribute("aria-disabled", "true");
  // Whether that server has a title model is set there, not here: the label does not guess.
  await expect(regenerate).toHaveText("Name it again");
  await regenerate.hover();
  await expect(page.getByTestId("tooltip").filter({ hasText: "Not offered by the LangGraph server" }).first()).toBeVisible();
  await page.keyboard.press("Enter"); // choosing it does nothing: the menu stays, the pin stays
  await expect(regenerate).toBeVisible();
  await expect(sidebar.rowTitle(id)).toHaveText("Télescopes for beginners");
  await page.keyboard.press("Escape");

  const history = page.getByTestId("header-title-history");
  await expect(history).toHaveAttribute("aria-disabled", "true");
  await history.hover();
  await expect(page.getByTestId("tooltip").filter({ hasText: "Not offered by the LangGraph server" }).first()).toBeVisible();
});

test("in local mode the web server runs no API of its own: no database, no one-process lock", async ({ chat, sidebar }) => {
  const id = await chat.startConversation("Name three rivers in Africa");
  await expect(sidebar.rowTitle(id)).toHaveText(fallbackTitle("Name three rivers in Africa"));
  await chat.waitForAnswerToFinish();
  // The web server's DATA_DIR (playwright.langgraph.config.ts): the embedded API would have opened
  // threadline.sqlite and taken its lock at start; several web processes may share this folder.
  const web = path.join(process.env.LG_E2E_DATA_DIR ?? "", "web");
  expect(fs.existsSync(web)).toBe(true);
  expect(fs.readdirSync(web).filter((f) => f.startsWith("threadline.sqlite"))).toEqual([]);
});
