import { describe, expect, it } from "vitest";
import { type AttachmentInfo, firstUserMessage, messageAttachments } from "./attachments";
import { EMPTY_TITLE, attachmentsTitle, fallbackTitleFor } from "./fallback";

const png = { type: "image", mimeType: "image/png", data: "iVBOR" };

describe("messageAttachments", () => {
  it("reads image, file and legacy image_url blocks, skipping text", () => {
    const message = {
      type: "human",
      content: [
        { type: "text", text: "look" },
        { ...png, metadata: { filename: "cat.png", size: 2048 } },
        { type: "file", mimeType: "application/pdf", data: "JVBER", metadata: { filename: "report.pdf", size: 10 } },
        { type: "file", mimeType: "text/markdown", url: "https://x/notes.md", metadata: { name: "notes.md" } },
        { type: "file", mimeType: "application/zip", data: "UEsD", filename: "code.zip" },
        { type: "file", mimeType: "image/jpeg", data: "/9j/", name: "photo.jpg" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
        { type: "image_url", image_url: "https://x/y.png" },
      ],
    };
    expect(messageAttachments(message)).toEqual([
      { name: "cat.png", kind: "image", size: 2048 },
      { name: "report.pdf", kind: "pdf", size: 10 },
      { name: "notes.md", kind: "text" },
      { name: "code.zip", kind: "file" },
      { name: "photo.jpg", kind: "image" },
      { name: "image", kind: "image" },
      { name: "image", kind: "image" },
    ]);
  });

  it("reads LangChain's serialised message form and a bare content list", () => {
    const content = [{ type: "text", text: "q" }, { ...png, metadata: { filename: "a.png" } }];
    // The shape @langchain/core 1.x serialises a HumanMessage to (lib/title may not import LangChain).
    const serialised = { lc: 1, type: "constructor", id: ["langchain_core", "messages", "HumanMessage"], kwargs: { content } };
    expect(messageAttachments(serialised)).toEqual([{ name: "a.png", kind: "image" }]);
    expect(messageAttachments(content)).toEqual([{ name: "a.png", kind: "image" }]);
  });

  it("uses generic names and guesses the kind from the extension when the MIME type is missing", () => {
    expect(
      messageAttachments({
        content: [
          { type: "file", data: "x" },
          { type: "file", data: "x", metadata: { filename: "Paper.PDF" } },
          { type: "file", data: "x", metadata: { filename: "shot.webp" } },
          { type: "file", data: "x", metadata: { filename: "data.csv" } },
          { type: "file", mime_type: "application/pdf", data: "x" },
          { type: "file", file: { filename: "legacy.pdf", file_data: "x" } },
          { type: "image", data: "x" },
        ],
      }),
    ).toEqual([
      { name: "file", kind: "file" },
      { name: "Paper.PDF", kind: "pdf" },
      { name: "shot.webp", kind: "image" },
      { name: "data.csv", kind: "text" },
      { name: "file", kind: "pdf" },
      { name: "legacy.pdf", kind: "pdf" },
      { name: "image", kind: "image" },
    ]);
  });

  it("sanitises names (bidi, escapes, zero-width), keeps only the base name and bounds its length", () => {
    const [a, b, c, d] = messageAttachments({
      content: [
        { type: "file", mimeType: "application/pdf", metadata: { filename: "C:\\fakepath\\\u202Efdp.exe\u001b[31m" } },
        { type: "file", mimeType: "text/plain", metadata: { filename: "/home/u/no\u200btes.txt" } },
        { type: "file", mimeType: "text/plain", metadata: { filename: "\u200b\u202e" } },
        { type: "file", mimeType: "text/plain", metadata: { filename: "x".repeat(100_000) } },
      ],
    });
    expect(a).toEqual({ name: "fdp.exe", kind: "pdf" });
    expect(b).toEqual({ name: "notes.txt", kind: "text" });
    expect(c).toEqual({ name: "file", kind: "text" });
    expect(d.name).toBe("x".repeat(100));
  });

  it("ignores a bad size, non-block junk and non-array content", () => {
    expect(messageAttachments({ content: [{ ...png, metadata: { size: -1 } }, { ...png, metadata: { size: "9" } }, null, 3, "s"] })).toEqual([
      { name: "image", kind: "image" },
      { name: "image", kind: "image" },
    ]);
    for (const m of [null, undefined, 7, "text", { content: "just text" }, {}]) expect(messageAttachments(m)).toEqual([]);
  });

  it("reads at most 100 blocks of a hostile message", () => {
    expect(messageAttachments({ content: Array.from({ length: 10_000 }, () => png) })).toHaveLength(100);
  });
});

describe("firstUserMessage", () => {
  it("skips hidden context reminders and non-user messages", () => {
    const hidden = { type: "human", content: "ctx", additional_kwargs: { threadline_hidden: true } };
    const real = { type: "human", content: "real" };
    const ai = { type: "ai", content: "hi" };
    expect(firstUserMessage([ai, hidden, real, { type: "human", content: "later" }])).toBe(real);
    expect(firstUserMessage([ai])).toBeNull();
    expect(firstUserMessage(null)).toBeNull();
  });
});

const img = (name = "image"): AttachmentInfo => ({ name, kind: "image" });
const pdf = (name = "file"): AttachmentInfo => ({ name, kind: "pdf" });
const txt = (name = "file"): AttachmentInfo => ({ name, kind: "text" });
const bin = (name = "file"): AttachmentInfo => ({ name, kind: "file" });

describe("attachmentsTitle", () => {
  it.each<[AttachmentInfo[], string | null]>([
    [[], null],
    [[pdf("report.pdf")], "report.pdf"],
    [[img("photo.png")], "photo.png"],
    [[img()], "1 image"],
    [[img(), img(), img()], "3 images"],
    [[pdf("report.pdf"), img(), img()], "report.pdf + 2 images"],
    [[img(), pdf("report.pdf"), img("b.png")], "report.pdf + 2 images"],
    [[pdf("report.pdf"), txt("notes.txt")], "report.pdf + notes.txt"],
    [[img("photo.png"), bin()], "photo.png + 1 file"],
    [[img("a.png"), img("b.png")], "a.png + b.png"],
    [[img("a.png"), img("b.png"), img("c.png")], "a.png + 2 images"],
    [[pdf("a.pdf"), pdf("b.pdf"), pdf(), txt(), txt(), bin(), img()], "a.pdf + 1 image + 2 PDFs + 2 text files + 1 file"],
    [[pdf(), txt()], "1 PDF + 1 text file"],
    [[img(), bin(), bin()], "1 image + 2 files"],
  ])("%j → %j", (list, expected) => {
    expect(attachmentsTitle(list)).toBe(expected);
  });

  it("sanitises names and applies the fallback length rule, grapheme-safe", () => {
    expect(attachmentsTitle([pdf("\u202Erep\u001b[1mort\u200b.pdf")])).toBe("report.pdf");
    expect(attachmentsTitle([pdf(`${"👨‍👩‍👧‍👦".repeat(60)}.pdf`)])).toBe(`${"👨‍👩‍👧‍👦".repeat(50)}...`);
    expect(attachmentsTitle([pdf(`${"a".repeat(30)}.pdf`), img(), img()], { max_chars: 20 })).toBe(`${"a".repeat(17)}...`);
  });

  it("a name that sanitises to nothing counts as unnamed; an unknown kind as a file", () => {
    expect(attachmentsTitle([pdf("\u200b"), img("x.png")])).toBe("x.png + 1 PDF");
    expect(attachmentsTitle([{ name: "blob", kind: "video" as never }])).toBe("blob");
    expect(attachmentsTitle([{ name: 5 as never, kind: "video" as never }])).toBe("1 file");
    expect(attachmentsTitle(null)).toBeNull();
  });
});

describe("fallbackTitleFor", () => {
  it("text wins when it has visible characters", () => {
    expect(fallbackTitleFor({ text: "Summarise this", attachments: [pdf("report.pdf")] })).toBe("Summarise this");
  });

  it("falls back to the attachments, then to New Conversation", () => {
    expect(fallbackTitleFor({ text: " \u200b\n", attachments: [pdf("report.pdf"), img()] })).toBe("report.pdf + 1 image");
    expect(fallbackTitleFor({ text: "" })).toBe(EMPTY_TITLE);
    expect(fallbackTitleFor({ text: "", attachments: [] })).toBe(EMPTY_TITLE);
    expect(fallbackTitleFor({ text: 5 as never, attachments: null })).toBe(EMPTY_TITLE);
  });

  it("uses the same length rule as the text fallback", () => {
    expect(fallbackTitleFor({ text: "a".repeat(51) })).toBe(`${"a".repeat(50)}...`);
  });
});
