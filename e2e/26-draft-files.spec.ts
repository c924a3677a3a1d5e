import type { Page } from "@playwright/test";
import type { ChatPage } from "./pages/ChatPage";
import { expect, keptFileKeys, test } from "./support";

// Files waiting in the composer are kept like its text (lib/client/draft-files.ts, IndexedDB).
const NOTES = { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("milk, eggs, flour\n") };
const PLAN = { name: "plan.md", mimeType: "text/markdown", buffer: Buffer.from("# Plan\n- one\n- two\n") };
const isRunStream = (url: URL) => url.pathname.endsWith("/runs/stream");

/** The drafts' database never opens in `page`, as when another tab holds it mid-upgrade. */
async function neverOpenDraftDatabase(page: Page) {
  await page.addInitScript(() => {
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, name: string, version?: number) {
      return name === "threadline" ? ({} as IDBOpenDBRequest) : open.call(this, name, version);
    };
  });
}

test("files in the composer are kept per conversation across switching and reload, until sent", async ({ page, chat, sidebar }) => {
  const chips = page.getByTestId("composer-attachment");
  const id = await chat.startConversation("A conversation that will get a file");
  await chat.waitForAnswerToFinish();
  await chat.attach(NOTES);
  await expect(chips).toHaveText([/notes\.txt/]);

  await page.getByTestId("new-chat").first().click();
  await expect(page).toHaveURL(/\/$/);
  await chat.expectComposerText("");
  await expect(chips).toHaveCount(0);
  await chat.attach(PLAN);
  await expect(chips).toHaveText([/plan\.md/]);

  await sidebar.row(id).getByTestId("thread-link").click();
  await expect(chips).toHaveText([/notes\.txt/]);
  await page.reload();
  await expect(chips).toHaveText([/notes\.txt/]);

  // Removing one is kept too; sending takes the rest with it and leaves nothing behind.
  await chat.attach(PLAN);
  await expect(chips).toHaveCount(2);
  await chips.filter({ hasText: "plan.md" }).getByRole("button").click();
  await expect(chips).toHaveText([/notes\.txt/]);
  await page.reload();
  await expect(chips).toHaveText([/notes\.txt/]);
  await chat.input.fill("Here is the list");
  await chat.input.press("Enter");
  await expect(chat.userMessages.last().getByTestId("message-attachment")).toContainText("notes.txt");
  await expect(chips).toHaveCount(0);
  await chat.waitForAnswerToFinish();
  await page.reload();
  await chat.expectComposerText("");
  await expect(chat.userMessages.last().getByTestId("message-attachment")).toContainText("notes.txt");
  await expect(chips).toHaveCount(0);

  await chat.openNew();
  await expect(chips).toHaveText([/plan\.md/]);
});

test("a send with a file that never reached the server comes back with its file after a reload", async ({ page, chat }) => {
  const chips = page.getByTestId("composer-attachment");
  const id = await chat.startConversation("A conversation on a bad link");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, () => undefined);
  await chat.attach(NOTES);
  await expect(chips).toHaveCount(1);
  await chat.send("Stuck on the way, with a file");
  await expect(chips).toHaveCount(0);
  await page.reload();
  await expect(chat.input).toHaveValue("Stuck on the way, with a file");
  await expect(chips).toHaveText([/notes\.txt/]);
  await expect(chat.userMessages).toHaveText(["A conversation on a bad link"]);

  // Sent again: it arrives once, with its file, and nothing is left to come back.
  await page.unroute(isRunStream);
  await chat.input.press("Enter");
  await expect(chat.userMessages.last().getByTestId("message-attachment")).toContainText("notes.txt");
  await chat.waitForAnswerToFinish();
  await page.reload();
  await chat.expectComposerText("");
  await expect(chips).toHaveCount(0);
  await expect(chat.userMessages).toHaveCount(2);
  expect(new URL(page.url()).pathname).toBe(`/c/${id}`);
});

/** A new conversation whose next send, with NOTES attached, fails at the network (the run route stays blocked). */
async function failSendWithFile(page: import("@playwright/test").Page, chat: ChatPage, conversation: string, text: string) {
  await chat.startConversation(conversation);
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, (route) => route.abort("internetdisconnected"));
  await chat.attach(NOTES);
  await chat.send(text);
  await expect(chat.error).toBeVisible();
}

test("a failed send with a file, followed by another message instead, puts its text and file back", async ({ page, chat }) => {
  const chips = page.getByTestId("composer-attachment");
  await failSendWithFile(page, chat, "Another conversation with a bad connection", "The failed one, with its file");
  await page.unroute(isRunStream);
  await chat.send("Something else instead");
  await expect(chat.input).toHaveValue("The failed one, with its file");
  await expect(chips).toHaveText([/notes\.txt/]);
  await chat.waitForAnswerToFinish();
  await page.reload();
  await expect(chat.input).toHaveValue("The failed one, with its file");
  await expect(chips).toHaveText([/notes\.txt/]);
});

test("a retried send with a file, once it arrives, leaves no copy of its file behind", async ({ page, chat }) => {
  await failSendWithFile(page, chat, "A conversation whose send is retried", "Retried with its file");
  await expect.poll(() => keptFileKeys(page)).toEqual([expect.stringMatching(/^sent:/)]);
  await page.unroute(isRunStream);
  await chat.retryButton.click();
  await expect(chat.userMessages.last().getByTestId("message-attachment")).toContainText("notes.txt");
  await chat.waitForAnswerToFinish();
  await chat.expectComposerText("");
  await expect.poll(() => keptFileKeys(page)).toEqual([]);
});

test("deleting a conversation for good takes its kept draft and files with it; Undo keeps them", async ({ page, chat, sidebar }) => {
  const chips = page.getByTestId("composer-attachment");
  const draftKeys = () => page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem("threadline:drafts") ?? "{}")));
  const id = await chat.startConversation("A conversation to be deleted with a draft in it");
  await chat.waitForAnswerToFinish();
  await chat.input.fill("A half-written reply");
  await chat.attach(NOTES);
  await expect(chips).toHaveCount(1);
  await expect.poll(() => keptFileKeys(page)).toContain(`draft:${id}`);
  expect(await draftKeys()).toContain(id);

  // Undo: nothing was deleted, so the draft is still there to come back to.
  await sidebar.menuItem(id, "menu-delete");
  await page.getByRole("button", { name: "Undo" }).click();
  await sidebar.row(id).getByTestId("thread-link").click();
  await chat.expectComposerText("A half-written reply");
  await expect(chips).toHaveText([/notes\.txt/]);

  // For good (the Undo toast runs out): the draft and its file go with the conversation.
  await sidebar.menuItem(id, "menu-delete");
  await expect(sidebar.row(id)).toHaveCount(0);
  await expect.poll(() => keptFileKeys(page), { timeout: 15_000 }).not.toContain(`draft:${id}`);
  expect(await draftKeys()).not.toContain(id);
});

test("what is typed or attached while a new conversation is being made stays in its box, kept for that conversation", async ({ page, chat }) => {
  const chips = page.getByTestId("composer-attachment");
  await chat.openNew();
  // The thread's POST is held, so there is time to type and attach before the conversation exists.
  let makeThread!: () => void;
  const held = new Promise<void>((resolve) => (makeThread = resolve));
  await page.route(
    (url) => /\/threads$/.test(url.pathname),
    async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    },
  );
  await chat.send("The question that makes the conversation");
  await chat.input.fill("a follow-up typed meanwhile");
  await chat.attach(NOTES);
  await expect(chips).toHaveText([/notes\.txt/]);
  makeThread();
  await expect(page).toHaveURL(/\/c\//);
  const id = await chat.threadId();
  await chat.waitForAnswerToFinish();
  await expect(chat.input).toHaveValue("a follow-up typed meanwhile");
  await expect(chips).toHaveText([/notes\.txt/]);
  await expect.poll(() => keptFileKeys(page)).toEqual([`draft:${id}`]);

  await page.reload();
  await expect(chat.input).toHaveValue("a follow-up typed meanwhile");
  await expect(chips).toHaveText([/notes\.txt/]);
  // The new-conversation page does not show them again.
  await page.getByTestId("new-chat").first().click();
  await expect(page).toHaveURL(/\/$/);
  await chat.expectComposerText("");
  await expect(chips).toHaveCount(0);
});

test("an Enter pressed while the kept files are still being read sends once they are in", async ({ page, chat }) => {
  await neverOpenDraftDatabase(page); // the box waits its whole patience for the kept files
  await chat.openNew();
  await chat.input.fill("Sent by the Enter pressed while waiting");
  await expect(chat.sendButton).toBeDisabled(); // still waiting for the kept files
  await chat.input.press("Enter");
  await expect(chat.userMessages).toHaveText(["Sent by the Enter pressed while waiting"], { timeout: 10_000 });
  await expect(chat.input).toHaveValue("");
  await chat.waitForAnswerToFinish();
});

test("when the kept files cannot be read (IndexedDB stuck), Send is let through without them once the patience runs out", async ({ page, chat }) => {
  await neverOpenDraftDatabase(page);
  await chat.openNew();
  await chat.input.fill("Sent although the kept files never came");
  // Never loaded: Send is let through once the patience (use-kept-draft-files.ts) runs out.
  await expect(chat.sendButton).toBeEnabled({ timeout: 10_000 });
  await chat.sendButton.click();
  await expect(chat.userMessages).toHaveText(["Sent although the kept files never came"]);
  await chat.waitForAnswerToFinish();
});
