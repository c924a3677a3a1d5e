import { apiClient, expect, takeAllRunSlots, test } from "./support";
import { ChatPage } from "./pages/ChatPage";

test("drafts are kept per conversation and for the new-conversation page, across switching and reload, until sent", async ({ page, chat, sidebar }) => {
  const a = await chat.startConversation("First conversation for drafts");
  await chat.waitForAnswerToFinish();
  const b = await chat.startConversation("Second conversation for drafts");
  await chat.waitForAnswerToFinish();

  await chat.input.fill("half-written for B");
  await sidebar.row(a).getByTestId("thread-link").click();
  await expect(page).toHaveURL(new RegExp(`/c/${a}$`));
  await chat.expectComposerText("");
  await chat.input.fill("half-written for A");

  await page.getByTestId("new-chat").first().click();
  await expect(page).toHaveURL(/\/$/);
  await chat.expectComposerText("");
  await chat.input.fill("an idea for a new chat");

  await page.reload();
  await expect(chat.input).toHaveValue("an idea for a new chat");
  await sidebar.row(b).getByTestId("thread-link").click();
  await expect(chat.input).toHaveValue("half-written for B");
  await chat.open(a);
  await expect(chat.input).toHaveValue("half-written for A");

  await chat.input.press("Enter");
  await expect(chat.userMessages.last()).toHaveText("half-written for A");
  await chat.expectComposerText("");
  await chat.waitForAnswerToFinish();
  await page.reload();
  await expect(chat.userMessages.last()).toHaveText("half-written for A");
  await chat.expectComposerText("");
  await chat.open(b);
  await expect(chat.input).toHaveValue("half-written for B");
});

test("the composer as the server sends it (what a person has until the page is live) is read-only, so typing there is not taken", async ({ browser, baseURL, chat }) => {
  const id = await chat.startConversation("A conversation opened before its page is live");
  await chat.waitForAnswerToFinish();
  // No scripts at all: the page as the server sends it, which is what a person has until it is live.
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  try {
    const page = await context.newPage();
    for (const path of ["/", `/c/${id}`]) {
      await page.goto(path);
      const input = page.getByTestId("composer-input");
      await expect(input).toHaveAttribute("readonly", "");
      await input.press("a");
      await expect(input).toHaveValue("");
    }
  } finally {
    await context.close();
  }
});

test("a long draft (a pasted 60,000-character text) is kept whole across switching and reload", async ({ page, chat, sidebar }) => {
  const id = await chat.startConversation("A conversation for a long paste");
  await chat.waitForAnswerToFinish();
  const pasted = Array.from({ length: 1_000 }, (_, i) => `Line ${String(i).padStart(4, "0")} of the pasted report, kept as written.`).join("\n").padEnd(60_000, ".");
  await chat.input.fill(pasted);
  await page.getByTestId("new-chat").first().click();
  await expect(page).toHaveURL(/\/$/);
  await sidebar.row(id).getByTestId("thread-link").click();
  await expect.poll(async () => (await chat.input.inputValue()).length).toBe(60_000);
  await page.reload();
  await expect.poll(async () => (await chat.input.inputValue()).length).toBe(60_000);
  expect(await chat.input.inputValue()).toBe(pasted);
});

// The send's POST /runs/stream: held (never answered, as on a link that stalls) or refused by the network.
const isRunStream = (url: URL) => url.pathname.endsWith("/runs/stream");
/** The conversation keys of the sends the page keeps until the server has them (lib/client/unsent.ts). */
const unsentKeys = (page: import("@playwright/test").Page) =>
  page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem("threadline:unsent") ?? "{}") as object));

test("a message whose send never reached the server is back in the composer after a reload, and is not sent twice", async ({ page, chat }) => {
  // New conversation: the thread is made, then the run's request stalls and the page reloads.
  await chat.openNew();
  await page.route(isRunStream, () => undefined);
  await chat.send("Lost in a tunnel on the way out");
  const id = await chat.threadId();
  expect(await unsentKeys(page)).toEqual([id]);
  await page.reload();
  await expect(chat.input).toHaveValue("Lost in a tunnel on the way out");
  await expect(chat.userMessages).toHaveCount(0);

  // Existing conversation: the request fails; more is typed; the page reloads.
  await page.unroute(isRunStream);
  await chat.input.press("Enter");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, (route) => route.abort("internetdisconnected"));
  expect(await unsentKeys(page)).toEqual([]);
  await chat.send("A second thought that never left");
  await expect(chat.error).toBeVisible();
  expect(await unsentKeys(page)).toEqual([id]);
  await chat.input.fill("and a third, typed after");
  await page.reload();
  await expect(chat.input).toHaveValue("A second thought that never left\n\nand a third, typed after");
  await expect(chat.userMessages).toHaveText(["Lost in a tunnel on the way out"]);

  // The request arrives and the run answers, but the answer never gets back to the page: after a
  // reload the conversation holds the message, so it is not put back into the composer.
  await page.unroute(isRunStream);
  let answered!: () => void;
  const serverAnswered = new Promise<void>((resolve) => (answered = resolve));
  await page.route(isRunStream, async (route) => {
    await route.fetch();
    answered();
  });
  await chat.input.press("Enter");
  await serverAnswered;
  expect(await unsentKeys(page)).toEqual([id]);
  await page.reload();
  await expect(chat.userMessages).toHaveText(["Lost in a tunnel on the way out", "A second thought that never left and a third, typed after"]);
  // The record is read (and dropped) after hydration: only then does the empty composer count.
  await expect.poll(() => unsentKeys(page)).toEqual([]);
  await chat.expectComposerText("");
  expect(new URL(page.url()).pathname).toBe(`/c/${id}`);
});

test("a failed send that is not retried but followed by another message is put back into the composer", async ({ page, chat }) => {
  const id = await chat.startConversation("A conversation with a bad connection");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, (route) => route.abort("internetdisconnected"));
  await chat.send("The question that failed");
  await expect(chat.error).toBeVisible();
  await page.unroute(isRunStream);
  await chat.send("A different question instead");
  await expect(chat.input).toHaveValue("The question that failed");
  await chat.waitForAnswerToFinish();
  await expect(chat.userMessages).toHaveText(["A conversation with a bad connection", "A different question instead"]);
  await page.reload();
  await expect(chat.userMessages).toHaveCount(2);
  await expect(chat.input).toHaveValue("The question that failed");
  expect(await unsentKeys(page)).toEqual([]);
  expect(new URL(page.url()).pathname).toBe(`/c/${id}`);
});

test("a send the server took but had not started when the page reloaded is not put back into the composer", async ({ page, chat }) => {
  const id = await chat.startConversation("A conversation on a busy server");
  await chat.waitForAnswerToFinish();
  const client = apiClient();
  const freeSlots = await takeAllRunSlots();
  let queuedId = "";
  try {
    // The server makes the run (it waits for a slot), but its answer never reaches the page.
    let took!: () => void;
    const serverTook = new Promise<void>((resolve) => (took = resolve));
    await page.route(isRunStream, async (route) => {
      void route.fetch().catch(() => undefined);
      took();
    });
    await chat.send("Queued behind a full server");
    await serverTook;
    await expect.poll(async () => (await client.runs.list(id, { status: "pending" })).length).toBe(1);
    queuedId = (await client.runs.list(id, { status: "pending" }))[0].run_id;
    expect(await unsentKeys(page)).toEqual([id]);
    await page.unroute(isRunStream);
    await page.reload();
    // The server has the message (in the run's input), so it is not also put back into the box.
    await expect.poll(() => unsentKeys(page)).toEqual([]);
    await chat.expectComposerText("");
  } finally {
    await freeSlots();
  }
  await client.runs.join(id, queuedId);
  await page.reload();
  await expect(chat.userMessages).toHaveText(["A conversation on a busy server", "Queued behind a full server"]);
  await chat.expectComposerText("");
});

test("a second tab opening the conversation while the first tab's send is under way leaves the text to the first tab", async ({ context, page, chat }) => {
  const id = await chat.startConversation("Two tabs and one message in flight");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, () => undefined);
  await chat.send("Sent from the first tab, still on its way");
  expect(await unsentKeys(page)).toEqual([id]);

  // Tabs share localStorage, not sessionStorage (where each keeps its own id).
  const other = await context.newPage();
  const otherChat = new ChatPage(other);
  await otherChat.open(id);
  await expect(otherChat.userMessages).toHaveText(["Two tabs and one message in flight"]);
  await otherChat.expectComposerText("");
  expect(await unsentKeys(other)).toEqual([id]);
  const tabOf = (p: typeof page) => p.evaluate(() => sessionStorage.getItem("threadline:tab"));
  expect(await tabOf(other)).not.toBe(await tabOf(page));

  // The send never got out: the first tab, reloaded, is still the same tab and gets its text back.
  await page.reload();
  await expect(chat.input).toHaveValue("Sent from the first tab, still on its way");
  await expect.poll(() => unsentKeys(page)).toEqual([]);
});

test("a send left by a tab that closed before the server had it is back at once in the next tab to open the conversation", async ({ context, page, chat }) => {
  const id = await chat.startConversation("A tab closed mid-send");
  await chat.waitForAnswerToFinish();
  // The send's request is held, then dropped as the tab goes (a request left pending is let
  // through when its page closes).
  let held: import("@playwright/test").Route | undefined;
  await page.route(isRunStream, (route) => void (held = route));
  await chat.send("Sent just before the tab closed");
  await expect.poll(() => held !== undefined).toBe(true);
  expect(await unsentKeys(page)).toEqual([id]);
  await held!.abort();
  await page.close();

  // Well within the minute a tab that is still open would be given: nobody answers for the tab that sent it.
  const next = await context.newPage();
  const nextChat = new ChatPage(next);
  await nextChat.open(id);
  await nextChat.expectComposerText("Sent just before the tab closed");
  await expect.poll(() => unsentKeys(next)).toEqual([]);
  expect(((await apiClient().threads.getState(id)).values as { messages: unknown[] }).messages).toHaveLength(2);
});

test("a send that failed in a tab still open is taken by another tab opening the conversation, not left for a minute", async ({ context, page, chat }) => {
  const id = await chat.startConversation("A failed send, its tab still open");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, (route) => route.abort());
  await chat.send("Failed, and the first tab is still open");
  await expect(chat.error).toBeVisible();
  expect(await unsentKeys(page)).toEqual([id]);

  const other = await context.newPage();
  const otherChat = new ChatPage(other);
  await otherChat.open(id);
  // The first tab answers for sends under way only: this one is not, so it comes here.
  await otherChat.expectComposerText("Failed, and the first tab is still open");
  await expect.poll(() => unsentKeys(other)).toEqual([]);

  // The first tab no longer offers to send it: one tab holds the message, and it is sent once.
  await expect(chat.error).toContainText("Your message is now in another tab's message box");
  await expect(chat.retryButton).toHaveCount(0);
  await page.unroute(isRunStream);
  await otherChat.sendButton.click();
  await otherChat.waitForAnswers(2);
  const texts = ((await apiClient().threads.getState(id)).values as { messages: { type: string; content: unknown }[] }).messages
    .filter((m) => m.type === "human")
    .map((m) => m.content);
  expect(texts).toEqual(["A failed send, its tab still open", "Failed, and the first tab is still open"]);
});

test("a failed send being retried is left to its tab by another tab opening the conversation meanwhile, and is sent once", async ({ context, page, chat }) => {
  const id = await chat.startConversation("A second try while another tab opens");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, (route) => route.abort());
  await chat.send("Failed once, then retried");
  await expect(chat.error).toBeVisible();
  await page.unroute(isRunStream);
  // Retry reads the thread's state first (did the message land?): held here while the other tab opens.
  let held: import("@playwright/test").Route | undefined;
  const isState = (url: URL) => url.pathname.endsWith(`/threads/${id}/state`);
  await page.route(isState, (route) => (held || route.request().method() !== "GET" ? route.continue() : void (held = route)));
  await chat.retryButton.click();
  await expect.poll(() => held !== undefined).toBe(true);
  // One Retry at a time: its button is gone while it checks.
  await expect(chat.retryButton).toHaveCount(0);

  const other = await context.newPage();
  const otherChat = new ChatPage(other);
  await otherChat.open(id);
  await expect(otherChat.input).not.toHaveAttribute("readonly");
  await otherChat.expectComposerText("");
  expect(await unsentKeys(other)).toEqual([id]);

  await held!.continue();
  await page.unroute(isState);
  await chat.waitForAnswers(2);
  await expect(chat.error).toHaveCount(0);
  const texts = ((await apiClient().threads.getState(id)).values as { messages: { type: string; content: unknown }[] }).messages
    .filter((m) => m.type === "human")
    .map((m) => m.content);
  expect(texts).toEqual(["A second try while another tab opens", "Failed once, then retried"]);
  await otherChat.expectComposerText("");
});

test("a Retry whose send is no longer kept for its tab (taken or replaced without a word) sends nothing and puts the text back in the box", async ({ page, chat }) => {
  const id = await chat.startConversation("A second try that finds its record gone");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, (route) => route.abort());
  await chat.send("Gone from storage before the retry");
  await expect(chat.error).toBeVisible();
  await page.unroute(isRunStream);
  // What a take by a tab whose word has not arrived yet leaves behind.
  await page.evaluate(() => localStorage.removeItem("threadline:unsent"));
  await chat.retryButton.click();
  await expect(chat.error).toContainText("This tab no longer held your message");
  await expect(chat.retryButton).toHaveCount(0);
  await chat.expectComposerText("Gone from storage before the retry");
  const texts = ((await apiClient().threads.getState(id)).values as { messages: { type: string }[] }).messages.filter((m) => m.type === "human");
  expect(texts).toHaveLength(1);
});

test("a sending tab too busy to answer at first keeps its young send: the other tab asks again when it is 3 s old, read-only meanwhile", async ({ context, page, chat }) => {
  const id = await chat.startConversation("A busy tab and a young send");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, () => undefined);
  await chat.send("Sent just now from a tab that is busy");
  expect(await unsentKeys(page)).toEqual([id]);
  // The first tab stops dead (paused in the debugger: what a long task looks like from outside)
  // until the other tab's first question has gone unanswered.
  const debug = await context.newCDPSession(page);
  await debug.send("Debugger.enable");
  await debug.send("Debugger.pause");

  const other = await context.newPage();
  // The send is made young again each time the other tab reads it, up to its first question about
  // it, so the test does not hang on how fast a loaded machine opens a tab; the other tab notes
  // when it asks.
  await other.addInitScript((threadId) => {
    const w = window as unknown as { youngSince: number; asked: number[] };
    w.asked = [];
    const getItem = Storage.prototype.getItem;
    const setItem = Storage.prototype.setItem;
    Storage.prototype.getItem = function (this: Storage, key: string) {
      if (key === "threadline:unsent" && w.asked.length === 0) {
        const records = JSON.parse(getItem.call(this, key) ?? "{}") as Record<string, { at: number }>;
        if (records[threadId]) {
          w.youngSince = records[threadId].at = Date.now();
          setItem.call(this, key, JSON.stringify(records));
        }
      }
      return getItem.call(this, key);
    };
    const post = BroadcastChannel.prototype.postMessage;
    BroadcastChannel.prototype.postMessage = function (this: BroadcastChannel, message: unknown) {
      const m = message as { type?: string; messageId?: string };
      if (m.type === "tab-ping" && m.messageId) w.asked.push(Date.now());
      post.call(this, message);
    };
  }, id);
  const otherChat = new ChatPage(other);
  await otherChat.open(id);
  // A question waits ANSWER_WAIT_MS (250 ms); polled by a timer due later than the question's own.
  await other.waitForFunction(() => {
    const w = window as unknown as { asked: number[] };
    return w.asked.length === 1 && Date.now() > w.asked[0] + 400;
  }, undefined, { polling: 50 });
  // The first question went unanswered: the page is live, and the box is still read-only, its draft not yet put back.
  await expect(otherChat.input).toHaveAttribute("readonly", "");
  await expect(otherChat.input).not.toHaveAttribute("data-draft-restored");
  await debug.send("Debugger.resume");
  await debug.detach();

  // The first silence did not count as gone: the other tab asked again once the send was 3 s old,
  // got its answer, and left the send to the first tab.
  await expect(otherChat.input).not.toHaveAttribute("readonly");
  await otherChat.expectComposerText("");
  expect(await unsentKeys(other)).toEqual([id]);
  const { youngSince, asked } = await other.evaluate(() => {
    const w = window as unknown as { youngSince: number; asked: number[] };
    return { youngSince: w.youngSince, asked: w.asked };
  });
  expect(asked).toHaveLength(2);
  // A timer may fire a millisecond or so before Date.now() shows its due time.
  expect(asked[1] - youngSince).toBeGreaterThanOrEqual(2990);
});

test("a duplicated tab (its sessionStorage copied) takes an id of its own and leaves the open tab's send to it", async ({ context, page, chat }) => {
  const id = await chat.startConversation("A tab and its duplicate");
  await chat.waitForAnswerToFinish();
  await page.route(isRunStream, () => undefined);
  await chat.send("Sent from the original, still on its way");
  const tabOf = (p: typeof page) => p.evaluate(() => sessionStorage.getItem("threadline:tab"));
  const original = await tabOf(page);
  expect(original).toBeTruthy();

  // What the browser's "Duplicate" does to sessionStorage: the copy starts with the same tab id.
  const copy = await context.newPage();
  await copy.addInitScript((tab) => {
    if (!sessionStorage.getItem("threadline:tab")) sessionStorage.setItem("threadline:tab", tab);
  }, original!);
  const copyChat = new ChatPage(copy);
  await copyChat.open(id);
  await copyChat.expectComposerText("");
  expect(await unsentKeys(copy)).toEqual([id]);
  await expect.poll(() => tabOf(copy)).not.toBe(original);
  expect(await tabOf(page)).toBe(original);

  // The original, reloaded, is still itself (the copy answers for its own id now) and takes its send back.
  await page.reload();
  await expect(chat.input).toHaveValue("Sent from the original, still on its way");
  await expect.poll(() => unsentKeys(page)).toEqual([]);
});
