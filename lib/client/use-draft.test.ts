import { describe, expect, it } from "vitest";
import { MAX_DRAFT_CHARS, MAX_DRAFTS, readDraft, writeDraft } from "./use-draft";

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
