import "fake-indexeddb/auto";
import { createStore, keys as idbKeys } from "idb-keyval";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { claimKept, forgetKept, OWNER_KEY, SIGNED_OUT } from "./storage-owner";

/** A Storage with the methods the module uses, over a Map. */
function memoryStorage(entries: Record<string, string> = {}) {
  const m = new Map(Object.entries(entries));
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, String(v)),
    removeItem: (k: string) => void m.delete(k),
    key: (i: number) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
    raw: m,
  };
}
const kept = (s: ReturnType<typeof memoryStorage>) => [...s.raw.keys()].filter((k) => k.startsWith("threadline:")).sort();

describe("what this browser keeps belongs to one person", () => {
  it("forgetting removes every item of ours and nothing else of the origin's", () => {
    const local = memoryStorage({ "threadline:drafts": "{}", "threadline:unsent": "{}", "other-app": "1", [OWNER_KEY]: "u1" });
    const session = memoryStorage({ "threadline:runs": "{}", "threadline:tab": "t" });
    forgetKept([local, session]);
    expect(kept(local)).toEqual([]);
    expect(kept(session)).toEqual([]);
    expect(local.getItem("other-app")).toBe("1");
    expect(local.getItem(OWNER_KEY)).toBe("u1");
  });

  it("the same person finds their drafts; a browser with no owner yet keeps its drafts (the tab's unmarked followed runs go)", () => {
    const local = memoryStorage({ "threadline:drafts": '{"new":1}' });
    const session = memoryStorage({ "threadline:runs": "{}" });
    expect(claimKept(local, session, "u1")).toBe(false);
    expect(kept(local)).toEqual(["threadline:drafts"]);
    expect(local.getItem(OWNER_KEY)).toBe("u1");
    session.setItem("threadline:runs", '{"t":"r"}');
    expect(claimKept(local, session, "u1")).toBe(false);
    expect(kept(local)).toEqual(["threadline:drafts"]);
    expect(kept(session)).toEqual(["threadline:runs"]);
  });

  it("someone else signing in (the first person's session expired, no sign-out) finds nothing of theirs", () => {
    const local = memoryStorage({ [OWNER_KEY]: "u1", "threadline:drafts": '{"new":1}', "threadline:unsent": "{}", "other-app": "1" });
    const session = memoryStorage({ "threadline:runs": "{}" });
    expect(claimKept(local, session, "u2")).toBe(true);
    expect(kept(local)).toEqual([]);
    expect(kept(session)).toEqual([]);
    expect(local.getItem("other-app")).toBe("1");
    expect(local.getItem(OWNER_KEY)).toBe("u2");
  });

  it("a tab's own sessionStorage not marked for this person is swept, though the browser's owner is this person", () => {
    // Another tab signed A out and B in; this tab, still holding A's followed runs, opens as B.
    const local = memoryStorage({ [OWNER_KEY]: "u2", "threadline:drafts": '{"b":1}' });
    const session = memoryStorage({ [OWNER_KEY]: "u1", "threadline:runs": '{"t":"r"}', "threadline:tab": "x" });
    expect(claimKept(local, session, "u2")).toBe(false);
    expect(kept(session)).toEqual([]);
    expect(session.getItem(OWNER_KEY)).toBe("u2");
    expect(kept(local)).toEqual(["threadline:drafts"]);
    // Marked for this person: left alone.
    session.setItem("threadline:runs", '{"t":"r2"}');
    expect(claimKept(local, session, "u2")).toBe(false);
    expect(kept(session)).toEqual(["threadline:runs"]);
  });

  it("what someone else left goes even when the new mark cannot be written (quota)", () => {
    const local = memoryStorage({ [OWNER_KEY]: "u1", "threadline:drafts": '{"a":1}' });
    local.setItem = () => {
      throw new Error("QuotaExceededError");
    };
    expect(claimKept(local, memoryStorage(), "u2")).toBe(true);
    expect(kept(local)).toEqual([]);
    expect(local.getItem(OWNER_KEY)).toBe("u1");
  });

  it("after a sign-out, whatever a tab still wrote is gone at the next sign-in, even the same person's", () => {
    const local = memoryStorage({ [OWNER_KEY]: SIGNED_OUT, "threadline:drafts": '{"late":1}' });
    expect(claimKept(local, memoryStorage(), "u1")).toBe(true);
    expect(kept(local)).toEqual([]);
  });
});

describe("a page after another tab signed out or signed someone else in", () => {
  const local = memoryStorage();
  const session = memoryStorage();
  beforeEach(() => {
    vi.resetModules();
    local.raw.clear();
    session.raw.clear();
    vi.stubGlobal("window", { localStorage: local, sessionStorage: session });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("keeps nothing more: no draft text, no unsent record, no file", async () => {
    const owner = await import("./storage-owner");
    const { browserStorage, writeDraft, readDraft } = await import("./use-draft");
    const { writeDraftFiles, readDraftFiles } = await import("./draft-files");
    local.setItem("threadline:drafts", JSON.stringify({ t1: { text: "someone else's", at: 1 } }));
    local.setItem(OWNER_KEY, "u0");

    expect(owner.claimForPage("u1")).toBe(true);
    expect(local.getItem("threadline:drafts")).toBeNull();
    expect(owner.ownsKept()).toBe(true);
    writeDraft(browserStorage()!, "t1", "mine");
    await writeDraftFiles("t1", [{ id: "f1", name: "f1.txt", size: 3, mimeType: "text/plain", kind: "text", data: btoa("abc") }]);
    expect(readDraft(browserStorage()!, "t1")).toBe("mine");
    expect((await readDraftFiles("t1")).map((f) => f.id)).toEqual(["f1"]);

    // Another tab signs out.
    local.setItem(OWNER_KEY, SIGNED_OUT);
    expect(owner.ownsKept()).toBe(false);
    expect(browserStorage()).toBeNull();
    await writeDraftFiles("t2", [{ id: "f2", name: "f2.txt", size: 3, mimeType: "text/plain", kind: "text", data: btoa("abc") }]);
    expect(await readDraftFiles("t2")).toEqual([]);
    expect((await idbKeys(createStore("threadline", "draft-files"))).map(String)).not.toContain("draft:t2");

    // Or signs someone else in: the same.
    local.setItem(OWNER_KEY, "u2");
    expect(owner.ownsKept()).toBe(false);
    expect(browserStorage()).toBeNull();
  });

  it("a file being written when another tab signs out does not stay", async () => {
    const owner = await import("./storage-owner");
    const { writeDraftFiles, readDraftFiles } = await import("./draft-files");
    owner.claimForPage("u1");
    const writing = writeDraftFiles("t3", [{ id: "f3", name: "f3.txt", size: 3, mimeType: "text/plain", kind: "text", data: btoa("abc") }]);
    local.setItem(OWNER_KEY, SIGNED_OUT); // while the write is under way
    await writing;
    expect(await readDraftFiles("t3")).toEqual([]);
  });

  it("a page whose person changes without a reload claims again, and the first person's things go", async () => {
    const owner = await import("./storage-owner");
    expect(owner.claimForPage("u1")).toBe(false);
    local.setItem("threadline:drafts", "{}");
    expect(owner.claimForPage("u1")).toBe(false); // every render of the shell: nothing new
    expect(local.getItem("threadline:drafts")).toBe("{}");
    expect(owner.claimForPage("u2")).toBe(true);
    expect(local.getItem("threadline:drafts")).toBeNull();
    expect(owner.ownsKept()).toBe(true);
  });

  it("in local mode (no owner claimed) the page always keeps its things", async () => {
    const owner = await import("./storage-owner");
    const { browserStorage } = await import("./use-draft");
    local.setItem(OWNER_KEY, "u9");
    expect(owner.ownsKept()).toBe(true);
    expect(browserStorage()).toBe(local);
  });
});
