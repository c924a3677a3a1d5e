import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { ChatPage } from "./pages/ChatPage";
import { apiClient, expect, keptStoppedAnswer, takeAllRunSlots, test } from "./support";

const unsentKeys = (page: Page) => page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem("threadline:unsent") ?? "{}") as object));

type Msg = { type: string; content: string; response_metadata?: Record<string, unknown> };

const isRunStream = (url: URL) => url.pathname.endsWith("/runs/stream");

/**
 * A conversation with one answered message, then `text` sent with one file while its run request
 * is held (no run exists, so Stop has nothing to cancel and puts the send back). The thread's id.
 */
async function sendWithRequestHeld(page: Page, chat: ChatPage, text: string, file: { name: string; buffer: Buffer }) {
  const id = await chat.startConversation("A first question");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, () => undefined);
  await chat.attach({ ...file, mimeType: "text/plain" });
  await expect(page.getByTestId("composer-attachment")).toHaveCount(1);
  await chat.send(text);
  return id;
}

test("Stop keeps the text written so far, marked stopped, after reload too; the next message follows it", async ({ page, chat }) => {
  const { id, seen } = await chat.stopFirstAnswer("Explain how tides work, in detail please");
  const kept = await keptStoppedAnswer(id, seen);
  await expect(chat.assistantMessages.first()).toContainText(kept.content.trim());

  await page.reload();
  await expect(chat.assistantMessages).toHaveCount(1);
  await expect(chat.assistantMessages.first()).toContainText(kept.content.trim());
  await expect(chat.stoppedMarks).toHaveCount(1);

  // A conversation with messages and a stopped answer reads well in light and dark (axe: contrast and the rest).
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${colorScheme}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(serious).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });

  await chat.send("Go on");
  await chat.waitForAnswerToFinish();
  await expect(chat.assistantMessages).toHaveCount(2);
  await expect(chat.userMessages).toHaveText(["Explain how tides work, in detail please", "Go on"]);
  await expect(chat.stoppedMarks).toHaveCount(1);
  await expect(chat.assistantMessages.first()).toHaveAttribute("data-stopped", "true");
  await expect(chat.assistantMessages.last()).toContainText("restart the server.");
});

test("Stop on a message still waiting for a free run slot keeps it in the conversation, and not also in the composer", async ({ page, chat }) => {
  const id = await chat.startConversation("A first question");
  await chat.waitForAnswerToFinish();
  // Every run slot of the server taken by other conversations: the next send waits as `pending`.
  const client = apiClient();
  const freeSlots = await takeAllRunSlots();
  try {
    await chat.send("Second question, sent while the server is full");
    await expect.poll(async () => (await client.runs.list(id)).map((r) => r.status)).toContain("pending");
    await chat.stopButton.click();
    await expect(chat.sendButton).toBeVisible();
    expect((await client.runs.list(id)).map((r) => r.status)).toEqual(["interrupted", "success"]);
  } finally {
    await freeSlots();
  }
  await expect(chat.userMessages).toHaveText(["A first question", "Second question, sent while the server is full"]);
  await chat.expectComposerText("");
  const state = await client.threads.getState<{ messages: Msg[] }>(id);
  expect(state.values.messages.map((m) => m.type)).toEqual(["human", "ai", "human"]);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(2);
  await chat.expectComposerText("");
});

test("Stop on a send whose request never reached the server puts it back into the composer, with its file, once", async ({ page, chat }) => {
  const id = await sendWithRequestHeld(page, chat, "Second question, lost in a tunnel", { name: "notes.txt", buffer: Buffer.from("stalled notes") });
  await expect(chat.userMessages).toHaveCount(2);
  await chat.expectComposerText("");
  await chat.input.fill("typed while waiting");
  await chat.stopButton.click();
  // Stop waits a few seconds for a run id that never comes, then gives the message back.
  await expect(chat.sendButton).toBeVisible({ timeout: 15_000 });
  await expect(chat.input).toHaveValue("Second question, lost in a tunnel\n\ntyped while waiting");
  await expect(page.getByTestId("composer-attachment")).toContainText("notes.txt");
  await expect(chat.userMessages).toHaveText(["A first question"]);
  // Once: it is the draft now, not also a pending send that a reload would put back a second time.
  expect(await unsentKeys(page)).toEqual([]);
  await page.unroute(isRunStream);
  await page.reload();
  // The text and the file are the composer's draft now: both survive the reload (once each).
  await expect(chat.input).toHaveValue("Second question, lost in a tunnel\n\ntyped while waiting");
  await expect(page.getByTestId("composer-attachment")).toHaveText([/notes\.txt/]);
  await chat.input.press("Enter");
  await chat.waitForAnswerToFinish();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(chat.userMessages.last()).toContainText("Second question, lost in a tunnel typed while waiting");
  await expect(chat.userMessages.last().getByTestId("message-attachment")).toHaveText([/notes\.txt/]);
  const state = await apiClient().threads.getState<{ messages: Msg[] }>(id);
  expect(state.values.messages.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
});

test("files put back by Stop are never dropped: over a message's limits with files added since, Send waits until some are removed", async ({ page, chat }) => {
  await sendWithRequestHeld(page, chat, "A question with a file", { name: "sent.txt", buffer: Buffer.from("sent notes") });
  await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
  // Eleven more while it waits: ten go in (a message's most), the eleventh is refused.
  const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `later-${i}.txt`, mimeType: "text/plain", buffer: Buffer.from(`later ${i}`) }));
  await chat.attach(eleven);
  await expect(page.getByTestId("composer-attachment")).toHaveCount(10);
  await expect(page.getByTestId("attachment-error")).toContainText("later-10.txt");
  await chat.stopButton.click();
  await expect(chat.sendButton).toBeVisible({ timeout: 15_000 });
  await expect(chat.input).toHaveValue("A question with a file");
  await expect(page.getByTestId("composer-attachment")).toHaveCount(11);
  await expect(page.getByTestId("composer-attachment").last()).toContainText("sent.txt");
  // The refusal shown while it waited stays, and why Send waits follows it: neither hides the other,
  // and the limit the put-back now passes is said once, by the second.
  await expect(page.getByTestId("attachment-error")).toHaveText(
    '"later-10.txt" not added: this message already holds more files than it can carry. 11 files are attached; a message can carry at most 10. Remove some to send.',
  );
  await expect(chat.sendButton).toBeDisabled();
  const runRequests: string[] = [];
  page.on("request", (r) => {
    if (isRunStream(new URL(r.url()))) runRequests.push(r.url());
  });
  await chat.input.press("Enter");
  await page.waitForTimeout(500); // a send would have left by now
  expect(runRequests).toEqual([]);
  await expect(chat.userMessages).toHaveText(["A first question"]);
  // A file refused now says why, and why Send waits stays beside it: two alerts, so only the new one is announced.
  await chat.attach([{ name: "one-more.txt", mimeType: "text/plain", buffer: Buffer.from("more") }]);
  await expect(page.getByTestId("attachment-error")).toHaveText(
    '"one-more.txt" not added: this message already holds more files than it can carry. 11 files are attached; a message can carry at most 10. Remove some to send.',
  );
  await expect(page.getByTestId("attachment-error").getByRole("alert")).toHaveText([
    '"one-more.txt" not added: this message already holds more files than it can carry.',
    "11 files are attached; a message can carry at most 10. Remove some to send.",
  ]);
  await page.getByRole("button", { name: "Remove later-0.txt" }).click();
  await expect(page.getByTestId("attachment-error")).toHaveCount(0);
  await expect(chat.sendButton).toBeEnabled();
  await page.unroute(isRunStream);
  await chat.input.press("Enter");
  await chat.waitForAnswerToFinish();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(page.getByTestId("message-attachment")).toHaveCount(10);
});

test("Stop on a send whose answer never came back cancels the run the server made for it: the message stays in the conversation, not also in the composer", async ({ page, chat }) => {
  const id = await chat.startConversation("A first question");
  await chat.waitForAnswerToFinish();
  const client = apiClient();
  const freeSlots = await takeAllRunSlots();
  try {
    // The request reaches the server (its run waits for a slot), but the answer never reaches the page.
    await page.route(isRunStream, (route) => void route.fetch().catch(() => undefined));
    await chat.send("Second question, answered into the void");
    await expect.poll(async () => (await client.runs.list(id, { status: "pending" })).length).toBe(1);
    await chat.stopButton.click();
    await expect(chat.sendButton).toBeVisible({ timeout: 15_000 });
    // Stop found the run by its message and cancelled it: it will not answer later.
    await expect.poll(async () => (await client.runs.list(id)).map((r) => r.status)).toEqual(["interrupted", "success"]);
    await expect(chat.userMessages).toHaveText(["A first question", "Second question, answered into the void"]);
    await chat.expectComposerText("");
    await page.unroute(isRunStream);
  } finally {
    await freeSlots();
  }
  await page.reload();
  await expect(chat.userMessages).toHaveCount(2);
  await chat.expectComposerText("");
});
