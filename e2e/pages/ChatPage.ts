import { expect, type Locator, type Page } from "@playwright/test";

/** The chat pane: composer, messages, header title. */
export class ChatPage {
  readonly input: Locator;
  readonly sendButton: Locator;
  readonly stopButton: Locator;
  readonly title: Locator;
  readonly headerLock: Locator;
  readonly assistantMessages: Locator;
  readonly userMessages: Locator;
  readonly offlineBanner: Locator;
  readonly titleEditor: Locator;
  readonly titleError: Locator;
  readonly stoppedMarks: Locator;
  readonly imagePlaceholders: Locator;
  readonly error: Locator;
  readonly retryButton: Locator;
  readonly deletedNotice: Locator;

  constructor(readonly page: Page) {
    this.input = page.getByTestId("composer-input");
    this.sendButton = page.getByTestId("send-button");
    this.stopButton = page.getByTestId("stop-button");
    this.title = page.getByTestId("chat-title");
    this.headerLock = page.getByTestId("header-lock");
    this.assistantMessages = page.getByTestId("message-assistant");
    this.userMessages = page.getByTestId("message-user");
    this.offlineBanner = page.getByTestId("offline-banner");
    this.titleEditor = page.getByTestId("chat-view").getByTestId("title-input");
    this.titleError = page.getByTestId("chat-view").getByTestId("title-error");
    this.stoppedMarks = page.getByTestId("stopped-mark");
    this.imagePlaceholders = page.getByTestId("image-placeholder");
    this.error = page.getByTestId("chat-error");
    this.retryButton = page.getByTestId("retry-button");
    this.deletedNotice = page.getByTestId("deleted-notice");
  }

  async openNew() {
    await this.page.goto("/");
    await expect(this.input).toBeVisible();
  }

  async open(threadId: string) {
    await this.page.goto(`/c/${threadId}`);
    await expect(this.input).toBeVisible();
  }

  /** The composer holds `text` once its stored draft is restored, so an empty box cannot pass early. */
  async expectComposerText(text: string) {
    await expect(this.input).toHaveAttribute("data-draft-restored", "true");
    await expect(this.input).toHaveValue(text);
  }

  /**
   * Files into the composer through its file input, once the page is live: a person's click on
   * the paperclip does nothing before then, and a file set on the input then would go unseen.
   */
  async attach(files: Parameters<Locator["setInputFiles"]>[0]) {
    await expect(this.input).toHaveAttribute("data-draft-restored", "true");
    await this.page.getByTestId("attach-input").setInputFiles(files);
  }

  /**
   * Types and sends with Enter, once the box is live and its kept draft and files are back (what
   * the test types should be all that is sent).
   */
  async send(text: string) {
    await expect(this.input).toHaveAttribute("data-draft-restored", "true");
    await this.input.fill(text);
    await this.input.press("Enter");
  }

  /** The open thread's id once the URL names it (the new-chat page swaps its URL in place). */
  async threadId(): Promise<string> {
    await expect.poll(() => new URL(this.page.url()).pathname, { timeout: 15_000 }).toMatch(/^\/c\/[^/]+$/);
    return decodeURIComponent(new URL(this.page.url()).pathname.split("/")[2]);
  }

  /** Sends the first message of a new conversation and returns its thread id. */
  async startConversation(text: string): Promise<string> {
    await this.openNew();
    await this.send(text);
    return this.threadId();
  }

  async waitForAnswerToFinish() {
    await expect(this.stopButton).toBeHidden({ timeout: 30_000 });
    await expect(this.assistantMessages.last()).toBeVisible();
  }

  /**
   * Waits until the conversation shows `count` answers and the last has finished. After a Retry
   * (which reads the thread before it sends) or a send from another tab, the stop button can be
   * hidden before the new run starts, so waiting for it alone can return before that answer exists.
   */
  async waitForAnswers(count: number) {
    await expect(this.assistantMessages).toHaveCount(count, { timeout: 15_000 });
    await this.waitForAnswerToFinish();
  }

  /** Waits until the answer being streamed has at least `words` words, then returns its text. */
  async waitForAnswerWords(words: number): Promise<string> {
    const answer = this.assistantMessages.last();
    await expect.poll(async () => ((await answer.textContent()) ?? "").trim().split(/\s+/).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(words);
    return (await answer.textContent()) ?? "";
  }

  /**
   * A new conversation whose first answer is stopped once `words` words of it are on screen: waits
   * until the page shows it stopped (one answer, marked). Its thread id and the text seen.
   */
  async stopFirstAnswer(question: string, words = 6): Promise<{ id: string; seen: string }> {
    const id = await this.startConversation(question);
    const seen = await this.waitForAnswerWords(words);
    await this.stopButton.click();
    await expect(this.sendButton).toBeVisible();
    await expect(this.stoppedMarks).toHaveCount(1);
    await expect(this.assistantMessages).toHaveCount(1);
    return { id, seen };
  }

  async isStreaming(): Promise<boolean> {
    return this.stopButton.isVisible();
  }

  /** Renames from the header (double-click or F2 on the title). */
  async renameInHeader(title: string, how: "double-click" | "f2" = "double-click") {
    if (how === "double-click") await this.title.dblclick();
    else {
      await this.title.focus();
      await this.page.keyboard.press("F2");
    }
    await expect(this.titleEditor).toBeFocused();
    await this.titleEditor.fill(title);
    await this.titleEditor.press("Enter");
    await expect(this.titleEditor).toBeHidden();
  }

  async expectTitle(text: string) {
    await expect(this.title).toHaveText(text);
    await expect.poll(() => this.page.title()).toBe(`${text} · Threadline`);
  }
}
