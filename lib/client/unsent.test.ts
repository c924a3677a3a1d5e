import { describe, expect, it } from "vitest";
import { OTHER_TAB_GRACE_MS, holdUnsent, inputMessageIds, isUnfinishedRun, joinUnsentAndDraft, moveUnsent, releaseUnsent, runToFollow, takeUnsent as takeRecord } from "./unsent";

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), raw: m };
}
const none = new Set<string>();
/** The text a page would put back (none for a send the conversation already holds). */
const takeUnsent = (...args: Parameters<typeof takeRecord>) => {
  const taken = takeRecord(...args);
  return taken && !taken.delivered ? taken.text : "";
};

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

  it("a second tab leaves another tab's fresh send alone, and takes it once that tab had long enough", () => {
    const s = memoryStorage();
    holdUnsent(s, "new", "m1", "sent from tab A", { now: 1_000, tab: "tab-a" });
    moveUnsent(s, "new", "t1", "m1"); // the record keeps its tab when its thread is made
    const later = (ms: number) => 1_000 + ms;
    expect(takeUnsent(s, "t1", none, none, { tab: "tab-b", now: later(OTHER_TAB_GRACE_MS - 1) })).toBe("");
    expect(JSON.parse(s.raw.get("threadline:unsent")!).t1).toMatchObject({ text: "sent from tab A", tab: "tab-a" });
    expect(takeUnsent(s, "t1", none, none, { tab: "tab-b", now: later(OTHER_TAB_GRACE_MS) })).toBe("sent from tab A");
    expect(takeUnsent(s, "t1", none, none, { tab: "tab-b", now: later(OTHER_TAB_GRACE_MS) })).toBe("");
  });

  it("when the tabs could be asked, a send is left while its tab says it is under way, however old, and taken at once when not", () => {
    const s = memoryStorage();
    holdUnsent(s, "t1", "m1", "sent from tab A", { now: 1_000, tab: "tab-a" });
    const asked = (senderOpen: boolean | null, askedAbout = "m1", now = 1_001) => takeUnsent(s, "t1", none, none, { tab: "tab-b", now, senderOpen, askedAbout });
    expect(asked(true, "m1", 1_000 + 10 * OTHER_TAB_GRACE_MS)).toBe("");
    // An answer about another send (a third tab sent meanwhile) does not decide this one: the minute does.
    expect(asked(false, "m0")).toBe("");
    expect(asked(false)).toBe("sent from tab A");
    // A tab with this tab's own id said it is sending it (this tab is a late-found duplicate): left.
    holdUnsent(s, "t1", "m3", "the original's", { now: 1_000, tab: "tab-b" });
    expect(asked(true, "m3")).toBe("");
    expect(asked(false, "m3")).toBe("the original's");
    // Could not ask (null): the minute decides, as without an answer.
    holdUnsent(s, "t1", "m2", "asked nobody", { now: 1_000, tab: "tab-a" });
    expect(asked(null, "m2")).toBe("");
    expect(asked(null, "m2", 1_000 + OTHER_TAB_GRACE_MS)).toBe("asked nobody");
  });

  it("the sending tab itself, reloaded, takes its own fresh send back at once; so does a record from before tabs were kept", () => {
    const s = memoryStorage();
    holdUnsent(s, "t1", "m1", "mine", { now: 1_000, tab: "tab-a" });
    expect(takeUnsent(s, "t1", none, none, { tab: "tab-a", now: 1_001 })).toBe("mine");
    holdUnsent(s, "t2", "m2", "no tab recorded", { now: 1_000 });
    expect(takeUnsent(s, "t2", none, none, { tab: "tab-b", now: 1_001 })).toBe("no tab recorded");
    holdUnsent(s, "t3", "m3", "delivered meanwhile", { now: 1_000, tab: "tab-a" });
    expect(takeUnsent(s, "t3", none, new Set(["m3"]), { tab: "tab-b", now: 1_000 + OTHER_TAB_GRACE_MS })).toBe("");
  });

  it("a send of files alone is kept too, marked so its files (kept elsewhere) come back with it", () => {
    const s = memoryStorage();
    holdUnsent(s, "t1", "m1", "", { files: true });
    holdUnsent(s, "t2", "m2", "text only");
    expect(takeRecord(s, "t1", none, none)).toEqual({ messageId: "m1", text: "", delivered: false, files: true });
    expect(takeRecord(s, "t2", none, new Set(["m2"]))).toEqual({ messageId: "m2", text: "text only", delivered: true, files: false });
    expect(takeRecord(s, "t1", none, none)).toBeNull();
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
    for (let i = 0; i < 60; i++) holdUnsent(s, `t${i}`, `m${i}`, `text ${i}`, { now: 1000 + i });
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

describe("runToFollow", () => {
  it("is the running run, else the oldest waiting one, else none (runs newest first)", () => {
    expect(runToFollow([{ run_id: "c", status: "pending" }, { run_id: "b", status: "running" }, { run_id: "a", status: "success" }])).toBe("b");
    expect(runToFollow([{ run_id: "c", status: "pending" }, { run_id: "b", status: "pending" }, { run_id: "a", status: "error" }])).toBe("b");
    expect(runToFollow([{ run_id: "a", status: "success" }, { run_id: "z", status: "interrupted" }])).toBeNull();
    expect(runToFollow([])).toBeNull();
    expect(runToFollow([{ status: "running" }])).toBeNull();
  });
});
