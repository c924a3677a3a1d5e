import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { safeNext, tooManyAttemptsText } from "./account";
import { OWNER_KEY, SIGNED_OUT } from "./storage-owner";

describe("tooManyAttemptsText", () => {
  it("says the wait the server asked for, in whole minutes rounded up", () => {
    expect(tooManyAttemptsText("60")).toBe("Too many attempts. Wait a minute, then try again.");
    expect(tooManyAttemptsText("61")).toBe("Too many attempts. Wait 2 minutes, then try again.");
    expect(tooManyAttemptsText("900")).toBe("Too many attempts. Wait 15 minutes, then try again.");
    expect(tooManyAttemptsText("5")).toBe("Too many attempts. Wait a minute, then try again.");
  });

  it("falls back to a minute when the header is missing or not a number of seconds", () => {
    for (const h of [null, "", "soon", "-3", "Wed, 21 Oct 2026 07:28:00 GMT"]) {
      expect(tooManyAttemptsText(h)).toBe("Too many attempts. Wait a minute, then try again.");
    }
  });
});

describe("safeNext", () => {
  it("keeps paths on this site and drops anything that could leave it", () => {
    expect(safeNext("/c/abc")).toBe("/c/abc");
    for (const n of [null, undefined, "", "https://evil.example", "//evil.example", "/\\evil.example"]) expect(safeNext(n)).toBe("/");
  });
});

/** A Storage over a Map; `refuseWrites` makes setItem throw as a full storage does. */
function memoryStorage(entries: Record<string, string>) {
  const m = new Map(Object.entries(entries));
  return {
    refuseWrites: false,
    getItem: (k: string) => m.get(k) ?? null,
    setItem(k: string, v: string) {
      if (this.refuseWrites) throw new DOMException("quota", "QuotaExceededError");
      m.set(k, String(v));
    },
    removeItem: (k: string) => void m.delete(k),
    key: (i: number) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
    raw: m,
  };
}

describe("signOut", () => {
  // Fresh modules each time: draft-files remembers a sign-out for the rest of the page.
  beforeEach(() => vi.resetModules());
  afterEach(() => vi.unstubAllGlobals());
  const answer = (status: number, headers: Record<string, string> = {}) =>
    vi.fn(async () => new Response(JSON.stringify(status < 400 ? { success: true } : { message: "down" }), { status, headers }));
  const file = { id: "f1", name: "notes.txt", size: 3, mimeType: "text/plain", kind: "text" as const, data: btoa("abc") };

  /** A signed-in page with a draft's text and file, on `fetch`. */
  async function signedIn(fetch: typeof globalThis.fetch, local = memoryStorage({ "threadline:drafts": '{"new":{"text":"half a thought"}}', [OWNER_KEY]: "u1" })) {
    const session = memoryStorage({ "threadline:runs": "{}", [OWNER_KEY]: "u1" });
    vi.stubGlobal("window", { localStorage: local, sessionStorage: session });
    vi.stubGlobal("fetch", fetch);
    const files = await import("./draft-files");
    await files.writeDraftFiles("new", [file]);
    const { signOut } = await import("./account");
    return { local, session, signOut, files };
  }

  it("keeps everything and says so when the server did not end the session (an error, or no answer)", async () => {
    const failing = [answer(503), vi.fn(async () => Promise.reject(new TypeError("Failed to fetch")))];
    for (const fetch of failing) {
      vi.resetModules();
      const { local, session, signOut, files } = await signedIn(fetch as typeof globalThis.fetch);
      await expect(signOut()).rejects.toThrow(/sign out|fetch/);
      expect(local.getItem("threadline:drafts")).toContain("half a thought");
      expect(local.getItem(OWNER_KEY)).toBe("u1");
      expect(session.getItem("threadline:runs")).toBe("{}");
      expect((await files.readDraftFiles("new")).map((f) => f.id)).toEqual(["f1"]);
      await files.clearDraftFiles();
    }
  });

  it("too many sign-outs: the wait the server asked for, and nothing forgotten", async () => {
    const { local, signOut } = await signedIn(answer(429, { "retry-after": "120" }));
    await expect(signOut()).rejects.toThrow("Too many attempts. Wait 2 minutes, then try again.");
    expect(local.getItem("threadline:drafts")).toContain("half a thought");
  });

  it("once the server signed out, forgets this browser's things and marks it nobody's", async () => {
    const fetch = answer(200);
    const { local, session, signOut, files } = await signedIn(fetch);
    local.setItem("other-app", "1");
    await signOut();
    expect(fetch).toHaveBeenCalledWith("/api/auth/sign-out", expect.objectContaining({ method: "POST" }));
    expect([...local.raw.keys()].sort()).toEqual(["other-app", OWNER_KEY]);
    expect(local.getItem(OWNER_KEY)).toBe(SIGNED_OUT);
    expect([...session.raw.keys()]).toEqual([OWNER_KEY]);
    expect(await files.readDraftFiles("new")).toEqual([]);
  });

  it("a storage that refuses writes does not turn a done sign-out into a failure, and still leaves no owner", async () => {
    const local = memoryStorage({ "threadline:drafts": "{}", [OWNER_KEY]: "u1" });
    const { signOut } = await signedIn(answer(200), local);
    local.refuseWrites = true;
    vi.stubGlobal("window", {
      localStorage: local,
      get sessionStorage(): Storage {
        throw new DOMException("blocked", "SecurityError");
      },
    });
    await expect(signOut()).resolves.toBeUndefined();
    expect(local.getItem("threadline:drafts")).toBeNull();
    // Not the signed-in person's any more: their other tabs reload and stop writing (ownsKept).
    expect(local.getItem(OWNER_KEY)).toBeNull();
  });
});
