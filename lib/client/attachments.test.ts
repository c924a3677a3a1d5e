import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  ACCEPTED_FILES_HINT,
  admitFiles,
  attachmentBlock,
  bytesToBase64,
  classifyFile,
  formatBytes,
  limitsPassed,
  MAX_FILE_BYTES,
  MAX_FILES_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  overLimit,
  readAttachment,
  refusalText,
  userMessageContent,
} from "./attachments";

const MiB = 1024 * 1024;
const file = (name: string, size: number, type = "application/pdf") => ({ name, size, type });
type Sized = { size: number };
/** What the composer shows after an add: the refusal phrased against the files it then holds. */
function admit<F extends Sized & { name: string; type: string }>(held: readonly Sized[], incoming: readonly F[]) {
  const { admitted, refused } = admitFiles(held, incoming);
  return { admitted, refused, error: refusalText(refused, limitsPassed([...held, ...admitted])) };
}

describe("which files a message may carry", () => {
  it("takes the four image types, PDFs and text files, by type or by extension when the type is missing", () => {
    expect(classifyFile({ name: "a.png", type: "image/png" })).toEqual({ kind: "image", mimeType: "image/png" });
    expect(classifyFile({ name: "a.webp", type: "image/webp" })?.kind).toBe("image");
    expect(classifyFile({ name: "r.pdf", type: "application/pdf" })).toEqual({ kind: "pdf", mimeType: "application/pdf" });
    expect(classifyFile({ name: "r.PDF", type: "" })).toEqual({ kind: "pdf", mimeType: "application/pdf" });
    expect(classifyFile({ name: "notes.md", type: "" })).toEqual({ kind: "text", mimeType: "text/markdown" });
    expect(classifyFile({ name: "data.csv", type: "text/csv" })).toEqual({ kind: "text", mimeType: "text/csv" });
    expect(classifyFile({ name: "x.json", type: "application/json" })).toEqual({ kind: "text", mimeType: "application/json" });
    expect(classifyFile({ name: "x.txt", type: "text/plain;charset=utf-8" })).toEqual({ kind: "text", mimeType: "text/plain" });
  });

  it("refuses everything else", () => {
    expect(classifyFile({ name: "a.svg", type: "image/svg+xml" })).toBeNull();
    expect(classifyFile({ name: "a.exe", type: "application/x-msdownload" })).toBeNull();
    expect(classifyFile({ name: "a.zip", type: "" })).toBeNull();
    expect(classifyFile({ name: "noext", type: "" })).toBeNull();
    // A known extension does not launder a declared type that says otherwise.
    expect(classifyFile({ name: "evil.txt", type: "application/x-msdownload" })).toBeNull();
  });
});

describe("size limits", () => {
  it("refuses a file over the per-file limit with its size and the limit, keeping the others", () => {
    const { admitted, error } = admit([], [file("big.pdf", MAX_FILE_BYTES + 1), file("ok.pdf", 1000)]);
    expect(admitted.map((f) => f.name)).toEqual(["ok.pdf"]);
    expect(error).toBe(`"big.pdf" is more than 5 MB; each file can be at most 5 MB.`);
    expect(admit([], [file("six.pdf", 6 * MiB)]).error).toBe(`"six.pdf" is 6 MB; each file can be at most 5 MB.`);
    expect(admit([], [file("edge.pdf", MAX_FILE_BYTES)]).error).toBeNull();
  });

  it("counts what the composer already holds against the per-message limit", () => {
    const held = [{ size: 4 * MiB }, { size: 4 * MiB }, { size: 4 * MiB }];
    const { admitted, error } = admit(held, [file("four.pdf", 4 * MiB), file("small.pdf", 2 * MiB)]);
    expect(admitted.map((f) => f.name)).toEqual(["small.pdf"]);
    expect(error).toBe(`"four.pdf" would bring this message to 16 MB; a message can carry at most 15 MB.`);
  });

  it("caps the number of files and names unsupported ones", () => {
    const many = Array.from({ length: MAX_FILES_PER_MESSAGE + 1 }, (_, i) => file(`f${i}.pdf`, 10));
    const { admitted, error } = admit([], [...many, file("x.exe", 10, "application/x-msdownload")]);
    expect(admitted).toHaveLength(MAX_FILES_PER_MESSAGE);
    expect(error).toContain(`"f10.pdf" not added: a message can carry at most 10 files.`);
    expect(error).toContain(`"x.exe" can't be attached`);
  });

  it("says each limit once, naming every file it refused, in the order the limits were first broken", () => {
    const held = [{ size: 4 * MiB }, { size: 4 * MiB }, { size: 4 * MiB }];
    const { admitted, error } = admit(held, [
      file("a.pdf", 4 * MiB),
      file("x.exe", 10, "application/x-msdownload"),
      file("b.pdf", 5 * MiB),
      file("huge.pdf", 9 * MiB),
      file("y.iso", 10, "application/x-iso9660-image"),
      file("c.pdf", 4 * MiB),
      file("fits.txt", 10, "text/plain"),
    ]);
    expect(admitted.map((f) => f.name)).toEqual(["fits.txt"]);
    expect(error).toBe(
      `"a.pdf", "b.pdf", and "c.pdf" would bring this message past 15 MB, the most a message can carry. ` +
        `"x.exe" and "y.iso" can't be attached: only ${ACCEPTED_FILES_HINT}. ` +
        `"huge.pdf" is 9 MB; each file can be at most 5 MB.`,
    );
    const many = Array.from({ length: MAX_FILES_PER_MESSAGE + 3 }, (_, i) => file(`f${i}.pdf`, 10));
    expect(admit([], many).error).toBe(`"f10.pdf", "f11.pdf", and "f12.pdf" not added: a message can carry at most 10 files.`);
  });

  it("where the files held already break a limit, a refusal for it leaves the limit to overLimit's line", () => {
    const eleven = Array.from({ length: MAX_FILES_PER_MESSAGE + 1 }, () => ({ size: 1 }));
    expect(admit(eleven, [file("one-more.txt", 10, "text/plain")]).error).toBe(`"one-more.txt" not added: this message already holds more files than it can carry.`);
    const heavy = [{ size: MAX_MESSAGE_BYTES }, { size: 1 }];
    expect(admit(heavy, [file("a.pdf", 1), file("b.pdf", 1)]).error).toBe(`"a.pdf" and "b.pdf" not added: this message's files already add up to more than it can carry.`);
    // At the limit, not over it: no overLimit line, so the refusal says the limit.
    const ten = Array.from({ length: MAX_FILES_PER_MESSAGE }, () => ({ size: 1 }));
    expect(admit(ten, [file("x.txt", 1, "text/plain")]).error).toBe(`"x.txt" not added: a message can carry at most 10 files.`);
  });

  it("a refusal on screen when a put-back passes its limit is phrased again, leaving the limit to overLimit's line", () => {
    const ten = Array.from({ length: MAX_FILES_PER_MESSAGE }, () => ({ size: 1 }));
    const { refused } = admitFiles(ten, [file("x.txt", 1, "text/plain")]);
    const afterPutBack = [...ten, { size: 1 }];
    expect([refusalText(refused, limitsPassed(afterPutBack)), overLimit(afterPutBack)].join(" ")).toBe(
      `"x.txt" not added: this message already holds more files than it can carry. 11 files are attached; a message can carry at most 10. Remove some to send.`,
    );
    const full = [{ size: MAX_MESSAGE_BYTES - 1 }];
    const bySize = admitFiles(full, [file("a.pdf", 2)]).refused;
    expect(refusalText(bySize, limitsPassed(full))).toBe(`"a.pdf" would bring this message to more than 15 MB; a message can carry at most 15 MB.`);
    expect(refusalText(bySize, limitsPassed([...full, { size: 2 }]))).toBe(`"a.pdf" not added: this message's files already add up to more than it can carry.`);
    expect(refusalText([], limitsPassed(afterPutBack))).toBeNull();
  });

  it("never admits more than the limits allow, whatever arrives", () => {
    const arbFile = fc.record({ name: fc.constantFrom("a.pdf", "b.png", "c.txt", "d.exe"), size: fc.nat(7 * MiB), type: fc.constant("") });
    fc.assert(
      // Held files as a composer may have them: a few of any size, or (put back by Stop) near or over a limit.
      fc.property(
        fc.oneof(
          fc.array(fc.nat(5 * MiB), { maxLength: 4 }),
          fc.array(fc.integer({ min: 3 * MiB, max: 5 * MiB }), { minLength: 3, maxLength: 12 }),
          fc.array(fc.nat(100_000), { minLength: MAX_FILES_PER_MESSAGE - 1, maxLength: MAX_FILES_PER_MESSAGE + 3 }),
        ),
        fc.array(arbFile, { maxLength: 15 }),
        // Files a Stop may put back while the refusal is on screen.
        fc.array(fc.integer({ min: 0, max: MAX_FILE_BYTES }), { maxLength: 4 }),
        (heldSizes, incoming, putBack) => {
          const held = heldSizes.map((size) => ({ size }));
          const { admitted, refused, error } = admit(held, incoming);
          const total = [...held, ...admitted].reduce((s, f) => s + f.size, 0);
          const overHeld = heldSizes.reduce((s, n) => s + n, 0) > MAX_MESSAGE_BYTES;
          if (!overHeld) expect(total).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
          if (held.length <= MAX_FILES_PER_MESSAGE) expect(held.length + admitted.length).toBeLessThanOrEqual(MAX_FILES_PER_MESSAGE);
          expect(admitted.every((f) => f.size <= MAX_FILE_BYTES && classifyFile(f))).toBe(true);
          expect(error === null).toBe(admitted.length === incoming.length);
          for (const limit of ["can't be attached", "each file can be at most", `at most ${formatBytes(MAX_MESSAGE_BYTES)}`, "the most a message can carry", `at most ${MAX_FILES_PER_MESSAGE} files`]) expect((error ?? "").split(limit).length).toBeLessThanOrEqual(2);
          // Shown together in the composer, the refusal and the over-limit line state each limit once,
          // also after a put-back while the refusal is on screen.
          const afterPutBack = [...held, ...admitted, ...putBack.map((size) => ({ size }))];
          for (const shown of [
            [error, overLimit([...held, ...admitted])].filter(Boolean).join(" "),
            [refusalText(refused, limitsPassed(afterPutBack)), overLimit(afterPutBack)].filter(Boolean).join(" "),
          ]) {
            expect(shown.split(`at most ${formatBytes(MAX_MESSAGE_BYTES)}`).length + shown.split("the most a message can carry").length).toBeLessThanOrEqual(3);
            expect(shown.split(`at most ${MAX_FILES_PER_MESSAGE}`).length).toBeLessThanOrEqual(2);
          }
        },
      ),
    );
  });

  it("keeps a full message's base64 under the API's 25 MiB body cap", () => {
    expect((Math.ceil(MAX_MESSAGE_BYTES / 3) * 4) / MiB).toBeLessThan(25 - 1);
  });

  it("formats sizes the way the limits are stated", () => {
    expect(formatBytes(820)).toBe("820 B");
    expect(formatBytes(12 * 1024)).toBe("12 KB");
    expect(formatBytes(1.5 * MiB)).toBe("1.5 MB");
    expect(formatBytes(MAX_MESSAGE_BYTES)).toBe("15 MB");
  });
});

describe("files over a message's limits (a put-back joined by files added since)", () => {
  const sized = (...sizes: number[]) => sizes.map((size) => ({ size }));
  it("is null at the limits and names each one passed", () => {
    expect(overLimit([])).toBeNull();
    expect(overLimit(sized(...Array(MAX_FILES_PER_MESSAGE).fill(1)))).toBeNull();
    expect(overLimit(sized(MAX_MESSAGE_BYTES - 1, 1))).toBeNull();
    expect(overLimit(sized(...Array(MAX_FILES_PER_MESSAGE + 1).fill(1)))).toBe(`${MAX_FILES_PER_MESSAGE + 1} files are attached; a message can carry at most ${MAX_FILES_PER_MESSAGE}. Remove some to send.`);
    expect(overLimit(sized(MAX_MESSAGE_BYTES, 1))).toBe(`The files add up to more than ${formatBytes(MAX_MESSAGE_BYTES)}; a message can carry at most ${formatBytes(MAX_MESSAGE_BYTES)}. Remove some to send.`);
    expect(overLimit(sized(...Array(MAX_FILES_PER_MESSAGE + 1).fill(MAX_FILE_BYTES)))).toMatch(/files are attached.*The files add up to/);
  });

  it("agrees with admitFiles: whatever admitFiles lets in, one by one, is never over", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: MAX_FILE_BYTES }), { maxLength: 14 }), (sizes) => {
        let held: { size: number }[] = [];
        for (const size of sizes) held = [...held, ...admit(held, [file("f.pdf", size)]).admitted];
        expect(overLimit(held)).toBeNull();
      }),
    );
  });
});

describe("reading a file into a content block", () => {
  it("base64-encodes any bytes exactly as Node does, across slice boundaries", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => bytesToBase64(bytes) === Buffer.from(bytes).toString("base64")),
      { numRuns: 30 },
    );
    const large = Uint8Array.from({ length: 3 * 0x8000 + 7 }, (_, i) => (i * 31) % 256);
    expect(bytesToBase64(large)).toBe(Buffer.from(large).toString("base64"));
  });

  it("reads a PDF into a standard file block with its name and size in metadata", async () => {
    const bytes = Buffer.from("%PDF-1.4 hello");
    const a = await readAttachment(new File([bytes], "report.pdf", { type: "application/pdf" }));
    expect(a).toMatchObject({ name: "report.pdf", size: bytes.length, kind: "pdf", mimeType: "application/pdf", data: bytes.toString("base64") });
    expect(attachmentBlock(a)).toEqual({
      type: "file",
      mimeType: "application/pdf",
      data: bytes.toString("base64"),
      metadata: { filename: "report.pdf", size: bytes.length },
    });
  });

  it("makes images `image` blocks and gives a pasted screenshot a telling name", async () => {
    const a = await readAttachment(new File([new Uint8Array([1, 2, 3])], "image.png", { type: "image/png" }));
    expect(a.name).toBe("pasted-image.png");
    expect(attachmentBlock(a)).toMatchObject({ type: "image", mimeType: "image/png", data: "AQID" });
  });

  it("refuses to read a file the checks refuse", async () => {
    await expect(readAttachment(new File(["x"], "a.exe", { type: "application/x-msdownload" }))).rejects.toThrow(/can't be attached/);
  });

  it("keeps a text-only message a plain string and puts the text before the files", async () => {
    const a = await readAttachment(new File(["hi"], "n.txt", { type: "text/plain" }));
    expect(userMessageContent("hello", [])).toBe("hello");
    expect(userMessageContent("look", [a])).toEqual([{ type: "text", text: "look" }, attachmentBlock(a)]);
    expect(userMessageContent("  ", [a])).toEqual([attachmentBlock(a)]);
  });
});
