import "fake-indexeddb/auto";
import { createStore, keys as idbKeys } from "idb-keyval";
import { describe, expect, it } from "vitest";
import type { ComposerAttachment } from "./attachments";
import { MAX_DRAFT_FILE_SETS, SENT_FILES_TTL_MS, forgetDraftFiles, holdSentFiles, readDraftFiles, readSentFiles, releaseSentFiles, writeDraftFiles } from "./draft-files";

const file = (id: string, name = `${id}.txt`): ComposerAttachment => ({ id, name, size: 3, mimeType: "text/plain", kind: "text", data: btoa("abc") });
const keys = async () => (await idbKeys(createStore("threadline", "draft-files"))).map(String).filter((k) => k !== "index");

describe("files kept beside the drafts (IndexedDB)", () => {
  it("keeps a conversation's composer files until they are cleared, apart from other conversations'", async () => {
    await writeDraftFiles("a1", [file("f1"), file("f2")]);
    await writeDraftFiles("b1", [file("f3")]);
    expect((await readDraftFiles("a1")).map((f) => f.id)).toEqual(["f1", "f2"]);
    expect((await readDraftFiles("b1")).map((f) => f.name)).toEqual(["f3.txt"]);
    expect(await readDraftFiles("nobody")).toEqual([]);
    await writeDraftFiles("a1", []);
    expect(await readDraftFiles("a1")).toEqual([]);
    expect(await keys()).not.toContain("draft:a1");
  });

  it("a send's files are kept by message id until released; a send without files keeps nothing", async () => {
    await holdSentFiles("m1", [file("s1")]);
    await holdSentFiles("m2", [file("s2")]);
    await holdSentFiles("m-none", []);
    expect((await readSentFiles("m1")).map((f) => f.id)).toEqual(["s1"]);
    expect(await readSentFiles("m-none")).toEqual([]);
    await releaseSentFiles("m1");
    await releaseSentFiles("m2");
    expect(await readSentFiles("m1")).toEqual([]);
    expect((await keys()).filter((k) => k.startsWith("sent:"))).toEqual([]);
  });

  it("is bounded: the most recent draft sets, and sent files only for a while", async () => {
    for (let i = 0; i < MAX_DRAFT_FILE_SETS + 5; i++) await writeDraftFiles(`bound-${i}`, [file(`b${i}`)], 1_000 + i);
    await holdSentFiles("old-send", [file("o1")], 0);
    await writeDraftFiles("latest", [file("l1")], SENT_FILES_TTL_MS + 10);
    const kept = await keys();
    expect(kept.filter((k) => k.startsWith("draft:")).length).toBe(MAX_DRAFT_FILE_SETS);
    expect(kept).toContain("draft:latest");
    expect(kept).not.toContain("draft:bound-0");
    expect(kept).not.toContain("sent:old-send");
  });

  it("reads a damaged entry as none instead of failing", async () => {
    const { set } = await import("idb-keyval");
    await set("draft:broken", { files: [{ id: 1 }], at: 5 }, createStore("threadline", "draft-files"));
    expect(await readDraftFiles("broken")).toEqual([]);
  });

  it("forgets every kept file at once (signing out)", async () => {
    await writeDraftFiles("new", [file("n1")]);
    await holdSentFiles("m9", [file("s9")]);
    await forgetDraftFiles();
    expect(await keys()).toEqual([]);
    expect(await readDraftFiles("new")).toEqual([]);
    // What the page still finishes after that (a read, a send) is not kept either.
    await writeDraftFiles("new", [file("late")]);
    await holdSentFiles("m10", [file("s10")]);
    expect(await keys()).toEqual([]);
  });
});
