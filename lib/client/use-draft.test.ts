import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { holdSentFiles, readDraftFiles, readSentFiles, writeDraftFiles } from "./draft-files";
import { holdUnsent, takeUnsent } from "./unsent";
import { carryDraft, forgetConversationDrafts, MAX_DRAFT_CHARS, MAX_DRAFTS, readDraft, writeDraft } from "./use-draft";

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), raw: m };
}

describe("drafts", () => {
  it("keeps one draft per conversation and drops it when blank (sent)", () => {
    const s = memoryStorage();
    writeDraft(s, "a", "half a thought");
    writeDraft(s, "new", "for a new chat");
    expect(readDraft(s, "a")).toBe("half a thought");
    expect(readDraft(s, "new")).toBe("for a new chat");
    writeDraft(s, "a", "");
    expect(readDraft(s, "a")).toBe("");
    expect(readDraft(s, "new")).toBe("for a new chat");
  });

  it("is bounded: the oldest drafts go first and each draft is capped", () => {
    const s = memoryStorage();
    for (let i = 0; i < MAX_DRAFTS + 5; i++) writeDraft(s, `t${i}`, `draft ${i}`, 1000 + i);
    expect(readDraft(s, "t0")).toBe("");
    expect(readDraft(s, "t4")).toBe("");
    expect(readDraft(s, "t5")).toBe("draft 5");
    expect(readDraft(s, `t${MAX_DRAFTS + 4}`)).toBe(`draft ${MAX_DRAFTS + 4}`);
    writeDraft(s, "big", "x".repeat(MAX_DRAFT_CHARS * 3), 5000);
    expect(readDraft(s, "big")).toHaveLength(MAX_DRAFT_CHARS);
  });

  it("survives corrupt storage", () => {
    const s = memoryStorage();
    s.setItem("threadline:drafts", "{not json");
    expect(readDraft(s, "a")).toBe("");
    writeDraft(s, "a", "fresh");
    expect(readDraft(s, "a")).toBe("fresh");
  });
});

describe("a draft carried from the new-conversation page to the conversation its send made", () => {
  it("is kept for the conversation and no longer for the new page", () => {
    const s = memoryStorage();
    writeDraft(s, "new", "typed while it was made");
    expect(carryDraft(s, "new", "t1", "typed while it was made")).toBe("typed while it was made");
    expect(readDraft(s, "t1")).toBe("typed while it was made");
    expect(readDraft(s, "new")).toBe("");
  });

  it("leaves the new page what another tab typed there since", () => {
    const s = memoryStorage();
    writeDraft(s, "new", "another tab's idea");
    carryDraft(s, "new", "t1", "this tab's follow-up");
    expect(readDraft(s, "t1")).toBe("this tab's follow-up");
    expect(readDraft(s, "new")).toBe("another tab's idea");
  });

  it("lets go of the new page's copy also when it was stored cut at the cap", () => {
    const s = memoryStorage();
    const long = "y".repeat(MAX_DRAFT_CHARS + 10);
    writeDraft(s, "new", long);
    carryDraft(s, "new", "t1", long);
    expect(readDraft(s, "new")).toBe("");
    expect(readDraft(s, "t1")).toHaveLength(MAX_DRAFT_CHARS);
  });

  it("goes after a draft the conversation already had, never over it", () => {
    const s = memoryStorage();
    writeDraft(s, "t1", "kept before");
    expect(carryDraft(s, "new", "t1", "carried")).toBe("kept before\n\ncarried");
  });
});

describe("a deleted conversation", () => {
  const file = (id: string) => ({ id, name: `${id}.txt`, size: 3, mimeType: "text/plain", kind: "text" as const, data: btoa("abc") });
  it("keeps neither its draft, nor its unsent send, nor their files; other conversations keep theirs", async () => {
    const s = memoryStorage();
    writeDraft(s, "gone", "a draft of the deleted one");
    writeDraft(s, "kept", "a draft of another");
    holdUnsent(s, "gone", "m1", "a send that never arrived", { files: true, now: 1 });
    holdUnsent(s, "kept", "m2", "another send", { files: true, now: 1 });
    await writeDraftFiles("gone", [file("d1")]);
    await writeDraftFiles("kept", [file("d2")]);
    await holdSentFiles("m1", [file("s1")]);
    await holdSentFiles("m2", [file("s2")]);

    await forgetConversationDrafts(s, "gone");

    expect(readDraft(s, "gone")).toBe("");
    expect(takeUnsent(s, "gone", new Set(), new Set())).toBeNull();
    expect(await readDraftFiles("gone")).toEqual([]);
    expect(await readSentFiles("m1")).toEqual([]);
    expect(readDraft(s, "kept")).toBe("a draft of another");
    expect((await readDraftFiles("kept")).map((f) => f.id)).toEqual(["d2"]);
    expect((await readSentFiles("m2")).map((f) => f.id)).toEqual(["s2"]);
    expect(takeUnsent(s, "kept", new Set(), new Set())?.text).toBe("another send");
  });
});
