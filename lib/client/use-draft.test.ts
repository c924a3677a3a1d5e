import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { holdSentFiles, readDraftFiles, readSentFiles, writeDraftFiles } from "./draft-files";
import { holdUnsent, takeUnsent } from "./unsent";
import { carryDraft, DRAFT_KEPT_WHOLE_MS, DRAFTS_BUDGET_CHARS, forgetConversationDrafts, MAX_DRAFTS, readDraft, writeDraft } from "./use-draft";

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

  it("is bounded by count: the oldest drafts go first", () => {
    const s = memoryStorage();
    for (let i = 0; i < MAX_DRAFTS + 5; i++) writeDraft(s, `t${i}`, `draft ${i}`, 1000 + i);
    expect(readDraft(s, "t0")).toBe("");
    expect(readDraft(s, "t4")).toBe("");
    expect(readDraft(s, "t5")).toBe("draft 5");
    expect(readDraft(s, `t${MAX_DRAFTS + 4}`)).toBe(`draft ${MAX_DRAFTS + 4}`);
    // The draft written now is kept even when 50 others carry a later time (another tab's clock).
    writeDraft(s, "late", "written last", 10);
    expect(readDraft(s, "late")).toBe("written last");
  });

  it("never cuts a draft: a long one is kept whole, and drafts untouched for a day make room for it, the oldest first", () => {
    const s = memoryStorage();
    const third = Math.floor(DRAFTS_BUDGET_CHARS / 3);
    const dayAgo = 10 * DRAFT_KEPT_WHOLE_MS;
    writeDraft(s, "older-but-small", "small", dayAgo - 2000);
    writeDraft(s, "old", "o".repeat(third), dayAgo - 1000);
    writeDraft(s, "middle", "m".repeat(third), dayAgo);
    const now = dayAgo + DRAFT_KEPT_WHOLE_MS;
    writeDraft(s, "long", "l".repeat(third + 10), now);
    // Over the budget in all: the oldest go first, in order (a small older one too).
    expect(readDraft(s, "long")).toHaveLength(third + 10);
    expect(readDraft(s, "middle")).toHaveLength(third);
    expect(readDraft(s, "old")).toBe("");
    expect(readDraft(s, "older-but-small")).toBe("");
  });

  it("never lets a draft of the last day go for its size, and a removal lets nothing go", () => {
    const s = memoryStorage();
    const huge = "h".repeat(DRAFTS_BUDGET_CHARS + 1);
    // carryDraft writes at Date.now(): this test's times are near it.
    const t = Date.now() - 60_000;
    writeDraft(s, "huge", huge, t);
    expect(readDraft(s, "huge")).toBe(huge);
    // Typing elsewhere, or sending there (a blank write), within the day: the huge one stays whole.
    writeDraft(s, "next", "a new idea", t + 1000);
    writeDraft(s, "sent", "about to be sent", t + 2000);
    writeDraft(s, "sent", "", t + 3000);
    expect(readDraft(s, "huge")).toBe(huge);
    expect(readDraft(s, "next")).toBe("a new idea");
    expect(readDraft(s, "sent")).toBe("");
    // Carried past the budget from the new-conversation page: kept whole where it went.
    writeDraft(s, "new", huge, t + 4000);
    expect(carryDraft(s, "new", "t1", huge)).toBe(huge);
    expect(readDraft(s, "t1")).toBe(huge);
    expect(readDraft(s, "new")).toBe("");
    // A day later, a new draft elsewhere: the untouched ones past the budget go, and every older
    // one with them (oldest first: a newer draft is never let go while an older one stays).
    writeDraft(s, "later", "next day", Date.now() + DRAFT_KEPT_WHOLE_MS);
    expect(readDraft(s, "later")).toBe("next day");
    expect(readDraft(s, "t1")).toBe("");
    expect(readDraft(s, "huge")).toBe("");
    expect(readDraft(s, "next")).toBe("");
  });

  it("when the storage refuses the save, older drafts go, oldest first, until the one being written is kept", () => {
    const m = new Map<string, string>();
    const QUOTA = 3000;
    const s = {
      getItem: (k: string) => m.get(k) ?? null,
      setItem: (k: string, v: string) => {
        if (v.length > QUOTA) throw new DOMException("quota", "QuotaExceededError");
        m.set(k, v);
      },
    };
    writeDraft(s, "a", "a".repeat(1000), 1000);
    writeDraft(s, "b", "b".repeat(1000), 2000);
    writeDraft(s, "c", "c".repeat(1500), 3000);
    expect(readDraft(s, "c")).toHaveLength(1500);
    expect(readDraft(s, "b")).toHaveLength(1000);
    expect(readDraft(s, "a")).toBe("");
    // Past the quota alone: nothing is saved, and the copy before it stays.
    writeDraft(s, "c", "c".repeat(QUOTA + 1), 4000);
    expect(readDraft(s, "c")).toHaveLength(1500);
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

  it("carries a long draft whole (60,000 characters) and lets go of the new page's copy", () => {
    const s = memoryStorage();
    const long = "y".repeat(60_000);
    writeDraft(s, "new", long);
    expect(carryDraft(s, "new", "t1", long)).toBe(long);
    expect(readDraft(s, "new")).toBe("");
    expect(readDraft(s, "t1")).toBe(long);
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
