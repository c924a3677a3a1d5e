import { describe, expect, it } from "vitest";
import { EMPTY_TITLE, fallbackTitle } from "./fallback";
import { sanitizeTitleText } from "./sanitize";
import { randomText, rng } from "./test-utils";

// The obvious definition: sanitise everything, segment everything. The real one must match it.
// (Only usable on moderate sizes: segmenting a long string step by step is quadratic in V8.)
const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
function reference(text: string, maxChars = 60, graphemes?: string[]): string {
  const s = sanitizeTitleText(text);
  const limit = Math.min(maxChars, 50);
  const g = graphemes ?? Array.from(seg.segment(s), (x) => x.segment);
  if (g.length <= limit) return s === "" ? EMPTY_TITLE : s;
  return g.slice(0, Math.min(limit, maxChars - 3)).join("").trimEnd() + "...";
}
const fullGraphemes = (text: string) => Array.from(seg.segment(sanitizeTitleText(text)), (x) => x.segment);

const FAMILY = "👨‍👩‍👧‍👦";
const JP = "🇯🇵";

describe("spec examples", () => {
  it("short CJK text is kept", () => {
    expect(fallbackTitle("请帮我写测试")).toBe("请帮我写测试");
  });

  it("empty text → New Conversation", () => {
    expect(EMPTY_TITLE).toBe("New Conversation");
    expect(fallbackTitle("")).toBe("New Conversation");
  });

  it("50 chars are kept, 51 are cut to 50 + ...", () => {
    expect(fallbackTitle("a".repeat(50))).toBe("a".repeat(50));
    const cut = fallbackTitle("a".repeat(51));
    expect(cut).toBe(`${"a".repeat(50)}...`);
    expect(cut).toHaveLength(53);
  });

  it("max_chars 20 cuts CJK to 17 + ...", () => {
    expect(fallbackTitle("这是一个非常长的问题描述，需要被截断以形成fallback标题", { max_chars: 20 })).toBe(
      "这是一个非常长的问题描述，需要被截...",
    );
  });
});

describe("sanitising and whitespace", () => {
  it.each([" ", "\n\t ", "\u00a0\u3000", "\u200b", `\u001b]0;x\u0007`])("whitespace/invisible-only %j → New Conversation", (s) => {
    expect(fallbackTitle(s)).toBe(EMPTY_TITLE);
  });

  it("sanitises before measuring", () => {
    expect(fallbackTitle("\u202Eevil\u001b[31mred\u001b[0m")).toBe("evilred");
    expect(fallbackTitle("  multi\n\nline\tquestion  ")).toBe("multi line question");
  });

  it("escape sequences do not count towards the limit", () => {
    const s = `${"\u001b[31m".repeat(100)}${"b".repeat(50)}`;
    expect(fallbackTitle(s)).toBe("b".repeat(50));
  });

  it("trims a space left at the cut before the ellipsis", () => {
    expect(fallbackTitle(`${"a".repeat(49)} ${"b".repeat(10)}`)).toBe(`${"a".repeat(49)}...`);
  });
});

describe("graphemes are never split", () => {
  it("ZWJ family emoji exactly at the cut point is kept whole", () => {
    expect(fallbackTitle(`${"a".repeat(49)}${FAMILY}b`)).toBe(`${"a".repeat(49)}${FAMILY}...`);
  });

  it("ZWJ family emoji just past the cut point is dropped whole", () => {
    expect(fallbackTitle(`${"a".repeat(50)}${FAMILY}`)).toBe(`${"a".repeat(50)}...`);
  });

  it("50 family emoji fit; 51 are cut (long graphemes need a bigger prefix)", () => {
    expect(fallbackTitle(FAMILY.repeat(50))).toBe(FAMILY.repeat(50));
    expect(fallbackTitle(FAMILY.repeat(51))).toBe(`${FAMILY.repeat(50)}...`);
  });

  it("flags stay paired, also at an odd offset", () => {
    expect(fallbackTitle(JP.repeat(51))).toBe(`${JP.repeat(50)}...`);
    expect(fallbackTitle(`a${JP.repeat(50)}`)).toBe(`a${JP.repeat(49)}...`);
  });

  it("combining sequences stay together", () => {
    expect(fallbackTitle("e\u0301".repeat(51))).toBe(`${"e\u0301".repeat(50)}...`);
    expect(fallbackTitle(`${"a".repeat(49)}e\u0301\u0308\u0323b`)).toBe(`${"a".repeat(49)}e\u0301\u0308\u0323...`);
  });

  it("a grapheme with thousands of combining marks at the cut is kept whole", () => {
    const huge = `e${"\u0301".repeat(5000)}`;
    expect(fallbackTitle(`${"a".repeat(49)}${huge}b`)).toBe(`${"a".repeat(49)}${huge}...`);
  });

  it("decomposed Hangul jamo syllables stay together", () => {
    const gak = "\u1100\u1161\u11a8";
    expect(fallbackTitle(gak.repeat(51))).toBe(`${gak.repeat(50)}...`);
  });

  it("skin-tone emoji and CJK", () => {
    expect(fallbackTitle("👍🏽".repeat(51))).toBe(`${"👍🏽".repeat(50)}...`);
    expect(fallbackTitle("字".repeat(51))).toBe(`${"字".repeat(50)}...`);
  });
});

describe("max_chars", () => {
  it.each([
    [10, "abcdefghij", "abcdefghij"],
    [10, "abcdefghijk", "abcdefg..."],
    [20, "a".repeat(20), "a".repeat(20)],
    [20, "a".repeat(21), `${"a".repeat(17)}...`],
    [52, "a".repeat(53), `${"a".repeat(49)}...`],
    [53, "a".repeat(53), `${"a".repeat(50)}...`],
    [60, "a".repeat(51), `${"a".repeat(50)}...`],
    [200, "a".repeat(51), `${"a".repeat(50)}...`],
    [200, "a".repeat(50), "a".repeat(50)],
  ])("max_chars %i: %j → %j", (max_chars, input, expected) => {
    const out = fallbackTitle(input, { max_chars });
    expect(out).toBe(expected);
    expect(out.length).toBeLessThanOrEqual(max_chars);
  });
});

describe("1 MB messages", () => {
  const MB = 1024 * 1024;
  const cases: Array<[string, string, string]> = [
    ["plain ASCII", "a".repeat(MB), `${"a".repeat(50)}...`],
    ["CJK", "字".repeat(MB), `${"字".repeat(50)}...`],
    ["family emoji", FAMILY.repeat(MB / FAMILY.length), `${FAMILY.repeat(50)}...`],
    ["a huge whitespace run before the text", `${" ".repeat(MB)}hello`, "hello"],
    ["a huge whitespace run after 49 chars", `${"a".repeat(49)}${" \n".repeat(MB / 2)}bc`, `${"a".repeat(49)}...`],
    ["zero-width spam before the text", `${"\u200b".repeat(MB)}${"x".repeat(51)}`, `${"x".repeat(50)}...`],
    ["an unterminated OSC swallowing everything", `\u001b]0;${"a".repeat(MB)}`, EMPTY_TITLE],
    ["a terminated OSC of 1 MB", `\u001b]0;${"a".repeat(MB)}\u0007short`, "short"],
    ["one grapheme of a million combining marks", `e${"\u0301".repeat(MB)}`, `e${"\u0301".repeat(MB)}`],
  ];
  it.each(cases)("%s: exact result, same as the full computation", (_, input, expected) => {
    const out = fallbackTitle(input);
    expect(out).toBe(expected);
    // Where the sanitised text is short (or one giant grapheme) the full computation is affordable too.
    const sanitized = sanitizeTitleText(input);
    if (sanitized.length < 10_000 || sanitized.startsWith("e\u0301")) expect(out).toBe(reference(input));
  });

  it("plain 1 MB text is cut from a bounded prefix (fast)", () => {
    const big = `${"word ".repeat(MB / 5)}`;
    fallbackTitle(big);
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) fallbackTitle(big);
    const perCall = (performance.now() - t0) / 100;
    // Sanitising + segmenting the whole megabyte takes tens of milliseconds; a prefix takes microseconds.
    expect(perCall).toBeLessThan(2);
  });

  it("even a fully scanned 1 MB text stays fast", () => {
    const big = `${" ".repeat(MB)}x`;
    fallbackTitle(big);
    const t0 = performance.now();
    expect(fallbackTitle(big)).toBe("x");
    expect(performance.now() - t0).toBeLessThan(150);
  });
});

describe("fuzz against the full computation", () => {
  it("random tricky text at every max_chars bound", () => {
    const next = rng(7);
    for (let round = 0; round < 400; round++) {
      const s = randomText(next, Math.floor(next() * 300));
      const g = fullGraphemes(s);
      for (const max of [10, 20, 53, 60, 200]) expect(fallbackTitle(s, { max_chars: max })).toBe(reference(s, max, g));
    }
  });

  it("long-grapheme text that forces the prefix to grow", () => {
    const next = rng(8);
    const pieces = [FAMILY, JP, "e\u0301\u0301\u0301", "👍🏽", " ", "\u200b".repeat(40), "\u001b[38;5;196m"];
    for (let round = 0; round < 200; round++) {
      let s = "";
      const n = 40 + Math.floor(next() * 60);
      for (let i = 0; i < n; i++) s += pieces[Math.floor(next() * pieces.length)];
      expect(fallbackTitle(s)).toBe(reference(s));
    }
  });
});
