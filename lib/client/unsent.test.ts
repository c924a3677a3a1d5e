import { describe, expect, it } from "vitest";
import { holdUnsent, inputMessageIds, isUnfinishedRun, joinUnsentAndDraft, moveUnsent, releaseUnsent, takeUnsent } from "./unsent";

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), raw: m };
}
const none = new Set<string>();

describe("unsent messages", () => {
  it("a send kept under the new-conversation key follows its thread and is gone once its run exists", () => {
    const s = memoryStorage();
    holdUnsent(s, "new", "m1", "hello there");
    moveUnsent(s, "new", "t1", "m1");
    expect(takeUnsent(s, "new", none, none)).toBe("");
    expect(takeUnsent(s, "t1", new Set(["m1"]), none)).toBe(""); // still there, under way
    expect(JSON.parse(s.raw.get("threadline:unsent")!).t1.text).toBe("hello there");
    releaseUnsent(s, "t1", "m1");
    expect(takeUnsent(s, "t1", none, none)).toBe("");
  });

  it("after a reload the text comes back once, unless the conversation already holds the message", () => {
    const s = memoryStorage();
    holdUnsent(s, "t1", "m1", "never arrived");
    holdUnsent(s, "t2", "m2", "did arrive");
    expect(takeUnsent(s, "t1", none, new Set(["other"]))).toBe("never arrived");
    expect(takeUnsent(s, "t1", none, none)).toBe("");
    expect(takeUnsent(s, "t2", none, new Set(["m2"]))).toBe("");
    expect(takeUnsent(s, "t2", none, none)).toBe("");
  });

  it("a send still under way on this page is left alone", () => {
    const s = memoryStorage();
    holdUnsent(s, "t1", "m1", "on its way");
    expect(takeUnsent(s, "t1", new Set(["m1"]), none)).toBe("");
    expect(takeUnsent(s, "t1", none, none)).toBe("on its way");
  });

  it("moves and releases only the send they name; a later send replaces an earlier one", () => {
    const s = memoryStorage();
    holdUnsent(s, "new", "m1", "first");
    holdUnsent(s, "new", "m2", "second");
    moveUnsent(s, "new", "t1", "m1");
    releaseUnsent(s, "new", "m1");
    expect(takeUnsent(s, "t1", none, none)).toBe("");
    expect(takeUnsent(s, "new", none, none)).toBe("second");
  });

  it("keeps nothing for blank text, survives corrupt storage and is bounded", () => {
    const s = memoryStorage();
    holdUnsent(s, "t1", "m1", "  \n ");
    expect(s.raw.size).toBe(0);
    s.setItem("threadline:unsent", "{not json");
    expect(takeUnsent(s, "t1", none, none)).toBe("");
    holdUnsent(s, "t1", "m1", "fresh");
    expect(takeUnsent(s, "t1", none, none)).toBe("fresh");
    for (let i = 0; i < 60; i++) holdUnsent(s, `t${i}`, `m${i}`, `text ${i}`, 1000 + i);
    expect(Object.keys(JSON.parse(s.raw.get("threadline:unsent")!))).toHaveLength(50);
    expect(takeUnsent(s, "t9", none, none)).toBe("");
    expect(takeUnsent(s, "t10", none, none)).toBe("text 10");
  });

  it("puts the unsent text before a draft written after it, once", () => {
    expect(joinUnsentAndDraft("", "draft")).toBe("draft");
    expect(joinUnsentAndDraft("sent", "")).toBe("sent");
    expect(joinUnsentAndDraft("sent", "sent")).toBe("sent");
    expect(joinUnsentAndDraft("sent", "more")).toBe("sent\n\nmore");
  });
});

describe("inputMessageIds", () => {
  it("reads the ids of the messages in runs' input, skipping runs and messages without them", () => {
    const runs = [
      { run_id: "r1", kwargs: { input: { messages: [{ id: "m1", type: "human", content: "a" }, { type: "human", content: "no id" }, { id: "" }] } } },
      { run_id: "r2", kwargs: { input: null, command: { resume: true } } },
      { run_id: "r3" },
      null,
      { run_id: "r4", kwargs: { input: { messages: "not a list" } } },
      { run_id: "r5", kwargs: { input: { messages: [{ id: "m2" }, { id: 7 }, null] } } },
    ];
    expect(inputMessageIds(runs)).toEqual(["m1", "m2"]);
    expect(inputMessageIds([])).toEqual([]);
  });
});

describe("isUnfinishedRun", () => {
  it("is a pending or running run, not one that ended or has no status", () => {
    expect(["pending", "running"].map((status) => isUnfinishedRun({ status }))).toEqual([true, true]);
    expect(["success", "error", "interrupted", "timeout", undefined].map((status) => isUnfinishedRun({ status }))).toEqual([false, false, false, false, false]);
  });
});
