import { describe, expect, it } from "vitest";
import { safeNext, tooManyAttemptsText } from "./account";

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
