import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { safeNext, signOut, tooManyAttemptsText } from "./account";
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

/** A Storage over a Map; `refuseWrites` makes setItem throw as a full or locked-down storage does. */
function memoryStorage(entries: Record<string, string>, refuseWrites = false) {
  const m = new Map(Object.entries(entries));
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (refuseWrites) throw new DOMException("quota", "QuotaExceededError");
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
  afterEach(() => vi.unstubAllGlobals());
  const answer = (status: number) => vi.fn(async () => new Response(JSON.stringify(status < 400 ? { success: true } : { message: "down" }), { status }));

  it("keeps everything and says so when the server did not end the session", async () => {
    const local = memoryStorage({ "threadline:drafts": '{"new":{"text":"half a thought"}}', [OWNER_KEY]: "u1" });
    const session = memoryStorage({ "threadline:runs": "{}" });
    vi.stubGlobal("window", { localStorage: local, sessionStorage: session });
    vi.stubGlobal("fetch", answer(503));
    await expect(signOut()).rejects.toThrow("Could not sign out.");
    expect(local.getItem("threadline:drafts")).toContain("half a thought");
    expect(local.getItem(OWNER_KEY)).toBe("u1");
    expect(session.getItem("threadline:runs")).toBe("{}");
  });

  it("once the server signed out, forgets this browser's things and marks it nobody's", async () => {
    const local = memoryStorage({ "threadline:drafts": "{}", "other-app": "1", [OWNER_KEY]: "u1" });
    const session = memoryStorage({ "threadline:tab": "t" });
    vi.stubGlobal("window", { localStorage: local, sessionStorage: session });
    const fetch = answer(200);
    vi.stubGlobal("fetch", fetch);
    await signOut();
    expect(fetch).toHaveBeenCalledWith("/api/auth/sign-out", expect.objectContaining({ method: "POST" }));
    expect([...local.raw.keys()].sort()).toEqual(["other-app", OWNER_KEY]);
    expect(local.getItem(OWNER_KEY)).toBe(SIGNED_OUT);
    expect(session.raw.size).toBe(0);
  });

  it("a storage that refuses writes does not turn a done sign-out into a failure", async () => {
    const local = memoryStorage({ "threadline:drafts": "{}", [OWNER_KEY]: "u1" }, true);
    vi.stubGlobal("window", {
      localStorage: local,
      get sessionStorage(): Storage {
        throw new DOMException("blocked", "SecurityError");
      },
    });
    vi.stubGlobal("fetch", answer(200));
    await expect(signOut()).resolves.toBeUndefined();
    expect(local.getItem("threadline:drafts")).toBeNull();
  });
});
