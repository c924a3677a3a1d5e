import { describe, expect, it } from "vitest";
import { visibleMessages } from "./chat-messages";
import { instantTitleOf } from "./instant-title";
import { attachmentViews } from "./message-attachments";

const PDF_B64 = "JVBERi0xLjQgaGVsbG8=";
const PNG_B64 = "iVBORw0KGgoAAAANSUhEUg==";
const pdf = { type: "file", mimeType: "application/pdf", data: PDF_B64, metadata: { filename: "report.pdf", size: 2048 } };
const png = { type: "image", mimeType: "image/png", data: PNG_B64, metadata: { filename: "cat.png", size: 17 } };

describe("attachments shown in the chat", () => {
  it("shows images as inline data thumbnails and other files as name and size", () => {
    expect(attachmentViews([{ type: "text", text: "hi" }, pdf, png])).toEqual([
      { key: "a1", name: "report.pdf", kind: "pdf", mimeType: "application/pdf", sizeLabel: "2 KB", imageSrc: null },
      { key: "a2", name: "cat.png", kind: "image", mimeType: "image/png", sizeLabel: "17 B", imageSrc: `data:image/png;base64,${PNG_B64}` },
    ]);
  });

  it("never builds a thumbnail from a remote URL, an unsafe type or data that is not base64", () => {
    const views = attachmentViews([
      { type: "image", url: "https://tracker.example/p.png", metadata: { filename: "remote.png" } },
      { type: "image", mimeType: "image/svg+xml", data: PNG_B64 },
      { type: "image", mimeType: "image/png", data: "x\"><script>" },
    ]);
    expect(views.map((v) => [v.name, v.imageSrc])).toEqual([
      ["remote.png", null],
      ["image", null],
      ["image", null],
    ]);
  });

  it("reads nothing from plain text content", () => {
    expect(attachmentViews("hello")).toEqual([]);
    expect(attachmentViews(null)).toEqual([]);
  });

  it("a user line carries its files and only the typed text, never the base64", () => {
    const [line] = visibleMessages([{ id: "h1", type: "human", content: [{ type: "text", text: "see attached" }, pdf, png] }]);
    expect(line.text).toBe("see attached");
    expect(line.attachments?.map((a) => a.name)).toEqual(["report.pdf", "cat.png"]);
    const [onlyFiles] = visibleMessages([{ id: "h2", type: "human", content: [pdf] }]);
    expect(onlyFiles).toMatchObject({ role: "user", text: "" });
    expect(JSON.stringify(visibleMessages([{ type: "human", content: [pdf] }]).map((l) => l.text))).not.toContain(PDF_B64);
  });
});

describe("the browser's instant title", () => {
  const config = { max_chars: 60 };
  it("comes from the text when there is any, and from the file names when there is none", () => {
    expect(instantTitleOf({ content: [{ type: "text", text: "Summarise this" }, pdf] }, config)).toBe("Summarise this");
    expect(instantTitleOf({ content: [pdf] }, config)).toBe("report.pdf");
    expect(instantTitleOf({ content: [pdf, png] }, config)).toBe("report.pdf + cat.png");
    expect(instantTitleOf({ content: [pdf, png, png] }, config)).toBe("report.pdf + 2 images");
  });
});
