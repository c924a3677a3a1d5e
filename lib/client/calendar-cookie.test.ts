import { describe, expect, it } from "vitest";
import { parseTzOffset } from "./calendar-cookie";
import { dateGroupOf } from "./thread-list-model";

describe("server-side calendar", () => {
  it("parses only real UTC offsets from the cookie", () => {
    expect(parseTzOffset("-480")).toBe(-480);
    expect(parseTzOffset("330")).toBe(330);
    expect(parseTzOffset("0")).toBe(0);
    expect(parseTzOffset("900")).toBeNull();
    expect(parseTzOffset("abc")).toBeNull();
    expect(parseTzOffset("1e3")).toBeNull();
    expect(parseTzOffset(undefined)).toBeNull();
  });

  it("groups by the given zone's calendar, not the runtime's", () => {
    const now = Date.parse("2026-11-29T02:00:00Z"); // Nov 29 in UTC, still Nov 28 18:00 in UTC-8
    const lateOn28thUtc = "2026-11-28T20:00:00Z";
    expect(dateGroupOf(lateOn28thUtc, now, 0)).toBe("Yesterday");
    expect(dateGroupOf(lateOn28thUtc, now, -480)).toBe("Today");
    expect(dateGroupOf("2026-11-21T12:00:00Z", now, 0)).toBe("Previous 30 days");
    expect(dateGroupOf("2026-11-23T12:00:00Z", now, 0)).toBe("Previous 7 days");
    expect(dateGroupOf("2026-10-01T12:00:00Z", now, 0)).toBe("Older");
  });
});
