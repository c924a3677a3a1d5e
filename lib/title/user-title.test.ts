import { describe, expect, it } from "vitest";
import { USER_TITLE_MAX_CHARS, normalizeUserTitle } from "./user-title";

describe("normalizeUserTitle", () => {
  it("sanitises and accepts", () => {
    expect(normalizeUserTitle("  My   Trip\nPlan ")).toEqual({ ok: true, title: "My Trip Plan" });
    expect(normalizeUserTitle("\u202Eevil\u001b[31mred\u001b[0m")).toEqual({ ok: true, title: "evilred" });
    expect(normalizeUserTitle("东京旅行 🇯🇵")).toEqual({ ok: true, title: "东京旅行 🇯🇵" });
    expect(normalizeUserTitle("\u0301\u0308Trip")).toEqual({ ok: true, title: "Trip" });
  });

  it.each(["", "   ", "\n\t", "\u200b\u202e", "\u001b[0m"])("%j is empty", (raw) => {
    expect(normalizeUserTitle(raw)).toEqual({ ok: false, message: "Title must not be empty" });
  });

  it.each([null, undefined, 42, true, {}, ["a"], { title: "x" }])("non-string %j is rejected", (raw) => {
    expect(normalizeUserTitle(raw)).toEqual({ ok: false, message: "Title must be a string" });
  });

  it("accepts exactly 200 graphemes (measured after sanitising)", () => {
    expect(USER_TITLE_MAX_CHARS).toBe(200);
    expect(normalizeUserTitle("a".repeat(200))).toEqual({ ok: true, title: "a".repeat(200) });
    const family = "👨‍👩‍👧‍👦";
    expect(normalizeUserTitle(family.repeat(200))).toEqual({ ok: true, title: family.repeat(200) });
    expect(normalizeUserTitle(`  ${"a".repeat(200)}\u200b  `)).toEqual({ ok: true, title: "a".repeat(200) });
    // Long only before sanitising: 200 spaces and a mark is the title "!" (once taken by the HTTP fuzz for too long).
    expect(normalizeUserTitle(`${" ".repeat(200)}!`)).toEqual({ ok: true, title: "!" });
    expect(normalizeUserTitle(`a${" ".repeat(300)}b`)).toEqual({ ok: true, title: "a b" });
  });

  it("rejects 201 graphemes instead of truncating", () => {
    const tooLong = { ok: false, message: "Title must be at most 200 characters" };
    expect(normalizeUserTitle("a".repeat(201))).toEqual(tooLong);
    expect(normalizeUserTitle("👨‍👩‍👧‍👦".repeat(201))).toEqual(tooLong);
  });

  it("rejects a 1 MB title", () => {
    expect(normalizeUserTitle("x".repeat(1024 * 1024)).ok).toBe(false);
  });

  it("rejects a character piled with marks (200 graphemes could be megabytes) instead of cutting it", () => {
    const piled = { ok: false, message: "Title has a character with too many accents or marks on it" };
    expect(normalizeUserTitle(`Z${"\u0301".repeat(300_000)} hello`)).toEqual(piled);
    expect(normalizeUserTitle(`a${"\u0301".repeat(2000)}`.repeat(100))).toEqual(piled);
    // Emoji joined past CLUSTER_MAX_UNITS (a made-up sequence of 20) are said to be that.
    const chain = Array(20).fill("\u{1F600}").join("\u200d");
    expect(normalizeUserTitle(`Fun ${chain}`)).toEqual({ ok: false, message: "Title has too many emoji joined into one character" });
    // The character that was too long decides, not another one beside it.
    expect(normalizeUserTitle(`Z${"\u0301".repeat(40)} ${chain}`)).toEqual(piled);
    expect(normalizeUserTitle("\u{1F469}\u{1F3FD}\u200D\u2764\uFE0F\u200D\u{1F48B}\u200D\u{1F468}\u{1F3FF} kiss")).toMatchObject({ ok: true });
    // Real characters with several marks are fine.
    expect(normalizeUserTitle("Vi\u1EC7t Nam \u1EA1\u0301")).toMatchObject({ ok: true });
  });

  it("refuses a title with nothing to see: blank letters, joiners, selectors, tags, stray marks", () => {
    const empty = { ok: false, message: "Title must not be empty" };
    for (const raw of ["\u200d", "\u3164", "\u115f\u1160", "\uffa0", "\u00ad", "\u034f", "\u180e", "\ufe0f", "\u{e0067}\u{e007f}", "\u0301\u0301", "\u200c \u200d"]) {
      expect(normalizeUserTitle(raw), JSON.stringify(raw)).toEqual(empty);
    }
    // Joiners inside real text stay (emoji sequences, scripts that need them).
    expect(normalizeUserTitle("👨\u200d👩")).toEqual({ ok: true, title: "👨\u200d👩" });
    expect(normalizeUserTitle("\u3164Hidden filler")).toEqual({ ok: true, title: "Hidden filler" });
  });
});

