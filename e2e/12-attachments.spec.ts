import { expect, test } from "./support";

// A tiny but real PDF: the browser reads these bytes and the chat shows its name and size.
const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
const MiB = 1024 * 1024;

test("a PDF sent alone is titled by its name at once, shows in the chat and is named by the offline reply", async ({ page, chat, sidebar }) => {
  // Hold the run until the instant title is checked, so only the browser can have written it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/runs\/stream$/, async (route) => {
    await held;
    await route.continue();
  });

  await chat.openNew();
  await chat.attach({ name: "report.pdf", mimeType: "application/pdf", buffer: PDF });
  const chip = page.getByTestId("composer-attachment");
  await expect(chip).toHaveCount(1);
  await expect(chip).toContainText("report.pdf");
  await expect(chip).toContainText(`${PDF.length} B`);

  await chat.sendButton.click();
  const id = await chat.threadId();
  await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
  await expect(sidebar.rowTitle(id)).toHaveText("report.pdf");
  await expect(chat.title).toHaveText("report.pdf");
  release();

  const sent = chat.userMessages.last().getByTestId("message-attachment");
  await expect(sent).toHaveAttribute("data-kind", "pdf");
  await expect(sent).toContainText("report.pdf");
  await expect(chat.assistantMessages.last()).toContainText("I can see you attached report.pdf", { timeout: 20_000 });
  await chat.waitForAnswerToFinish();

  // The stored message comes back from the server whole, as a chip, never as bytes.
  await page.reload();
  await expect(chat.userMessages.last().getByTestId("message-attachment")).toContainText("report.pdf");
  await expect(chat.userMessages.last()).not.toContainText("JVBER");
});

test("the server titles a files-only conversation by its files too (after a reload)", async ({ page, chat, sidebar }) => {
  await chat.openNew();
  await chat.attach({ name: "report.pdf", mimeType: "application/pdf", buffer: PDF });
  await chat.sendButton.click();
  const id = await chat.threadId();
  await chat.waitForAnswerToFinish();
  await expect(sidebar.rowTitle(id)).toHaveText("report.pdf");
  await page.reload();
  await expect(sidebar.rowTitle(id)).toHaveText("report.pdf");
  await chat.expectTitle("report.pdf");
});

test("an oversize file is refused inline: nothing sent, nothing lost from the composer", async ({ page, chat }) => {
  let runsCreated = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/runs(\/stream)?$/.test(new URL(r.url()).pathname)) runsCreated++;
  });
  await chat.openNew();
  await chat.input.fill("Keep this text");
  await chat.attach({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("shopping list") });
  await expect(page.getByTestId("composer-attachment")).toHaveCount(1);

  await chat.attach({ name: "huge.pdf", mimeType: "application/pdf", buffer: Buffer.alloc(5 * MiB + 1, 0x20) });
  const error = page.getByTestId("attachment-error");
  await expect(error).toHaveText(/"huge\.pdf" is more than 5 MB; each file can be at most 5 MB\./);
  await expect(page.getByTestId("attachment-refusal")).toHaveAttribute("role", "alert");
  await expect(chat.input).toHaveValue("Keep this text");
  await expect(page.getByTestId("composer-attachment")).toHaveCount(1);
  await expect(page.getByTestId("composer-attachment")).toContainText("notes.txt");
  expect(runsCreated).toBe(0);
  await expect(page).toHaveURL(/\/$/);

  // Removing the chip takes the file off the message; the error goes with the next change.
  await page.getByRole("button", { name: "Remove notes.txt" }).click();
  await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
  await expect(error).toBeHidden();
  await expect(chat.input).toHaveValue("Keep this text");
});

test("a pasted image and a dropped file become chips, and a removed chip is not sent", async ({ page, chat }) => {
  await chat.openNew();
  // A 1x1 PNG pasted as a clipboard file, the way a screenshot arrives (once the page is live: a
  // paste before then is the browser's own).
  await expect(chat.input).toHaveAttribute("data-draft-restored", "true");
  await chat.input.focus();
  await page.evaluate(() => {
    const bytes = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], "image.png", { type: "image/png" }));
    document.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(page.getByTestId("composer-attachment")).toContainText("pasted-image.png");

  // A file dropped on the composer joins it.
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(["# Draft"], "draft.md", { type: "" }));
    const box = document.querySelector('[data-testid="composer-input"]')!;
    box.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
    box.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(page.getByTestId("composer-attachment")).toHaveCount(2);
  await expect(page.getByTestId("composer-attachment").last()).toContainText("draft.md");
  await page.getByRole("button", { name: "Remove draft.md" }).click();
  await chat.send("What is in this picture?");
  await chat.threadId();

  const files = chat.userMessages.last().getByTestId("message-attachment");
  await expect(files).toHaveCount(1);
  await expect(files).toHaveAttribute("data-kind", "image");
  await expect(files.locator("img")).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(chat.userMessages.last()).toContainText("What is in this picture?");
  await expect(chat.assistantMessages.last()).toContainText("I can see you attached pasted-image.png", { timeout: 20_000 });
  await chat.waitForAnswerToFinish();
});

test("a file whose read fails late says so beside a refusal that came after it, not over it", async ({ page, chat }) => {
  // The disk read is the one thing scripted: this file's bytes fail to load, 1.5 s after it is added
  // (well after the next file's refusal shows).
  await page.addInitScript(() => {
    const read = Blob.prototype.arrayBuffer;
    Blob.prototype.arrayBuffer = function (this: Blob) {
      if (this instanceof File && this.name === "unreadable.txt") return new Promise((_, reject) => setTimeout(() => reject(new DOMException("gone", "NotReadableError")), 1500));
      return read.call(this);
    };
  });
  await chat.openNew();
  await chat.attach({ name: "unreadable.txt", mimeType: "text/plain", buffer: Buffer.from("lost") });
  await chat.attach({ name: "tool.exe", mimeType: "application/x-msdownload", buffer: Buffer.from("MZ") });
  const error = page.getByTestId("attachment-error");
  await expect(error).toContainText(`"tool.exe" can't be attached`);
  // Then the late failure arrives, and the refusal is still there beside it.
  await expect(error).toContainText(`Could not read "unreadable.txt".`);
  await expect(error).toContainText(`"tool.exe" can't be attached`);
  await expect(page.getByTestId("composer-attachment")).toHaveCount(0);
});
