import fs from "node:fs";
import path from "node:path";
import { expect, fallbackTitle, test } from "./support";
import { ChatPage } from "./pages/ChatPage";
import { Sidebar } from "./pages/Sidebar";

const OUT = path.join("test-results", "screenshots");

test("screenshots: desktop light, desktop dark, mobile drawer", async ({ page, chat, sidebar, browser }) => {
  fs.mkdirSync(OUT, { recursive: true });
  const first = await chat.startConversation("Which houseplants survive a dark north-facing flat?");
  await chat.waitForAnswerToFinish();
  await sidebar.menuItem(first, "menu-star");
  await expect(sidebar.groups.first()).toHaveText("Starred");
  const second = await chat.startConversation("Write a haiku about Monday mornings");
  await chat.waitForAnswerToFinish();
  await sidebar.rename(second, "Monday haiku");
  // The README picture: a Markdown-laden first message gets a clean fallback title, cut at a word,
  // and an answer stopped midway keeps its text with the "Stopped" mark.
  const markdown = "## How do I **keep** a `sourdough` starter alive while travelling for [two weeks](https://example.com/trip)?";
  const third = await chat.startConversation(markdown);
  const clean = fallbackTitle(markdown);
  expect(clean).toBe(fallbackTitle("How do I keep a sourdough starter alive while travelling for two weeks?"));
  expect(clean).not.toMatch(/[#*`[\]]/);
  await expect(sidebar.rowTitle(third)).toHaveText(clean);
  await expect.poll(async () => ((await chat.assistantMessages.last().textContent()) ?? "").length).toBeGreaterThan(40);
  await chat.stopButton.click();
  await expect(chat.stoppedMarks).toHaveCount(1);
  await page.mouse.move(900, 400);

  await page.emulateMedia({ colorScheme: "light" });
  await page.screenshot({ path: path.join(OUT, "desktop-light.png") });
  fs.mkdirSync(path.join("e2e", "screenshots"), { recursive: true });
  fs.copyFileSync(path.join(OUT, "desktop-light.png"), path.join("e2e", "screenshots", "desktop.png"));

  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: path.join(OUT, "desktop-dark.png") });

  const mobile = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const phone = await mobile.newPage();
  const phoneChat = new ChatPage(phone);
  await phoneChat.open(first);
  await expect(phone.getByTestId("sidebar")).toBeHidden();
  await phone.getByTestId("open-drawer").click();
  const drawer = phone.getByTestId("drawer");
  await expect(drawer).toBeVisible();
  await expect(new Sidebar(phone, drawer).row(second)).toBeVisible();
  await phone.screenshot({ path: path.join(OUT, "mobile-drawer.png") });
  // Choosing a conversation closes the drawer.
  await new Sidebar(phone, drawer).row(second).getByTestId("thread-link").click();
  await expect(drawer).toBeHidden();
  await expect(phoneChat.title).toHaveText("Monday haiku");
  await mobile.close();
});
