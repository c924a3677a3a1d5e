import { describe, expect, it } from "vitest";
import type { FallbackCut } from "./config";
import { EMPTY_TITLE, fallbackTitle } from "./fallback";
import { CLUSTER_MAX_UNITS, clampCluster } from "./graphemes";
import { markdownToPlainText } from "./markdown";
import { sanitizeTitleText } from "./sanitize";
import { randomText, rng } from "./test-utils";

// The obvious definition: strip and sanitise everything, segment everything, then DeerFlow's cut
// moved back to a space. The real one must match it. (Only usable on moderate sizes: segmenting a
// long string step by step is quadratic in V8.)
const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
function reference(text: string, maxChars = 60, graphemes?: string[], cut: FallbackCut = "word"): string {
  const s = markdownToPlainText(text);
  const limit = Math.min(maxChars, 50);
  const g = graphemes ?? Array.from(seg.segment(s), (x) => clampCluster(x.segment));
  if (g.length <= limit) return s === "" ? EMPTY_TITLE : g.join("");
  const keep = Math.min(limit, maxChars - 3);
  let body = g.slice(0, keep);
  const [before, after] = [g[keep - 1], g[keep]];
  const inWord = before !== " " && after !== " " && !UNSPACED.test(before) && !UNSPACED.test(after);
  if (cut === "word" && inWord) {
    const space = body.lastIndexOf(" ");
    if (space >= Math.ceil(keep * 0.6)) body = body.slice(0, space);
  }
  return body.join("").trimEnd() + "...";
}
const fullGraphemes = (text: string) => Array.from(seg.segment(markdownToPlainText(text)), (x) => x.segment);

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

  it("a first message starting with stray combining marks is titled without them (also by markdown's view)", () => {
    expect(fallbackTitle("\u0301\u0301Plan a trip to Porto")).toBe("Plan a trip to Porto");
    expect(fallbackTitle("\u0301".repeat(10_000) + "# Plan a trip")).toBe("Plan a trip");
    expect(fallbackTitle("# \u0301Plan a trip")).toBe("Plan a trip");
  });

  it("escape sequences do not count towards the limit", () => {
    const s = `${"\u001b[31m".repeat(100)}${"b".repeat(50)}`;
    expect(fallbackTitle(s)).toBe("b".repeat(50));
  });

  it("trims a space left at the cut before the ellipsis (a cut beside a space splits no word)", () => {
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

  it("a grapheme with thousands of combining marks at the cut keeps only its first marks, never half a code point", () => {
    const huge = `e${"\u0301".repeat(5000)}`;
    expect(fallbackTitle(`${"a".repeat(49)}${huge}b`)).toBe(`${"a".repeat(49)}${huge.slice(0, CLUSTER_MAX_UNITS)}...`);
  });

  it("a first message with nothing to see gets the empty title, not an invisible one", () => {
    for (const text of ["\u200c", "\u00ad", "\u034f", "\u115f", "\u3164", "\uffa0", "\u180e", "\ufe0f", "\u{e0067}\u{e007f}", "\u200d\u200d"]) {
      expect(fallbackTitle(text), JSON.stringify(text)).toBe(EMPTY_TITLE);
    }
    expect(fallbackTitle("he\u200bllo wor\u2060ld\u00ad")).toBe("hello world");
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
    ["one grapheme of a million combining marks", `e${"\u0301".repeat(MB)}`, `e${"\u0301".repeat(CLUSTER_MAX_UNITS - 1)}`],
  ];
  it.each(cases)("%s: exact result, same as the full computation", (_, input, expected) => {
    const out = fallbackTitle(input);
    expect(out).toBe(expected);
    // Where the sanitised text is short (or one giant grapheme) the full computation is affordable too.
    const sanitized = sanitizeTitleText(input);
    if (sanitized.length < 10_000 || sanitized.startsWith("e\u0301")) expect(out).toBe(reference(input));
  });

  it("1 MB of Markdown-heavy text: exact, and read from a bounded prefix", () => {
    const unit = "## **Bold** _it_ `code` [link](https://e.x/a_b) ![img](p.png)\n> - item ~~gone~~ snake_case\n```ts\nx = 1\n```\n---\n";
    const big = unit.repeat(Math.ceil(MB / unit.length));
    const expected = "Bold it code link img item gone snake_case x = 1...";
    expect(reference(big.slice(0, 4 * unit.length))).toBe(expected);
    expect(fallbackTitle(big)).toBe(expected);
  });

  // Speed lives in bench/title.bench.ts (`npm run bench`); these check the 1 MB answers are right.
  it("1 MB whose Markdown strips to almost nothing still finds the text at its end", () => {
    const big = `${"---\n![](p.png)\n".repeat(MB / 16)}tail`;
    expect(fallbackTitle(big)).toBe("tail");
  });

  it("plain 1 MB text is cut like its prefix", () => {
    const big = `${"word ".repeat(MB / 5)}`;
    expect(fallbackTitle(big)).toBe(fallbackTitle(big.slice(0, 1000)));
  });

  it("a 1 MB run of spaces before one letter gives that letter", () => {
    expect(fallbackTitle(`${" ".repeat(MB)}x`)).toBe("x");
  });
});

describe("fuzz against the full computation", () => {
  it("random tricky text at every max_chars bound", () => {
    const next = rng(7);
    for (let round = 0; round < 400; round++) {
      const s = randomText(next, Math.floor(next() * 300));
      const g = fullGraphemes(s);
      for (const max of [10, 20, 53, 60, 200]) {
        expect(fallbackTitle(s, { max_chars: max })).toBe(reference(s, max, g));
        expect(fallbackTitle(s, { max_chars: max, fallback_cut: "grapheme" })).toBe(reference(s, max, g, "grapheme"));
      }
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

  it("Markdown and words of every length around the cut, also in long lines", () => {
    const next = rng(9);
    const pieces = ["word", "ab", "a", " ", " ", "\n", "**b**", "_i_", "`c`", "[l](u)", "# ", "- ", "> ", "```\n", "字", "ไทย", FAMILY, "snake_case", "2*3"];
    for (let round = 0; round < 300; round++) {
      let s = "";
      const n = 10 + Math.floor(next() * (round % 10 === 0 ? 1500 : 80));
      for (let i = 0; i < n; i++) s += pieces[Math.floor(next() * pieces.length)];
      const g = fullGraphemes(s);
      for (const max of [10, 20, 60]) {
        expect(fallbackTitle(s, { max_chars: max })).toBe(reference(s, max, g));
        expect(fallbackTitle(s, { max_chars: max, fallback_cut: "grapheme" })).toBe(reference(s, max, g, "grapheme"));
      }
    }
  });
});

describe("fallback titles read like titles (issue 11)", () => {
  it("the issue's Markdown example", () => {
    expect(fallbackTitle("# How do I **center** a `div` in [CSS](https://x.y)?")).toBe("How do I center a div in CSS?");
  });

  const trip = "Please suggest a relaxing weekend itinerary to share with my family in Kyoto";
  it("a long text ends before a word, not inside it; TITLE_FALLBACK_CUT=grapheme restores DeerFlow's cut", () => {
    expect(fallbackTitle(trip)).toBe("Please suggest a relaxing weekend itinerary to...");
    expect(fallbackTitle(trip, { max_chars: 60, fallback_cut: "word" })).toBe("Please suggest a relaxing weekend itinerary to...");
    expect(fallbackTitle(trip, { max_chars: 60, fallback_cut: "grapheme" })).toBe("Please suggest a relaxing weekend itinerary to sha...");
  });

  it.each<[string, number, string]>([
    // The cut falls inside "family"; the last space after 60 % of the body is before it.
    [`${"x".repeat(40)} my wonderful trip`, 60, `${"x".repeat(40)} my...`],
    // No space after the first 60 %: DeerFlow's cut.
    [`${"x".repeat(20)} ${"y".repeat(40)}`, 60, `${"x".repeat(20)} ${"y".repeat(29)}...`],
    // Exactly at 60 % (30 of 50) is still allowed.
    [`${"x".repeat(30)} ${"y".repeat(30)}`, 60, `${"x".repeat(30)}...`],
    // The cut lands just before a space: nothing is split.
    [`${"x".repeat(50)} tail`, 60, `${"x".repeat(50)}...`],
    // The cut lands just after a space: nothing is split (the space is trimmed).
    [`${"x".repeat(49)} tail`, 60, `${"x".repeat(49)}...`],
    // Small max_chars: body 17, 60 % is 11.
    ["hello wonderful world", 20, "hello wonderful..."],
    ["hellohello wonderful", 10, "hellohe..."],
    // Text without whitespace and scripts without spaces are cut as DeerFlow does.
    ["a".repeat(60), 60, `${"a".repeat(50)}...`],
    [`${"字".repeat(45)} ${"字".repeat(20)}`, 60, `${"字".repeat(45)} ${"字".repeat(4)}...`],
    [`${"ab ".repeat(14)}${"字".repeat(20)}`, 60, `${"ab ".repeat(14)}${"字".repeat(8)}...`],
    [`${"a ".repeat(20)}${"ภาษาไทย".repeat(10)}`, 60, `${"a ".repeat(20)}${Array.from(seg.segment("ภาษาไทย".repeat(10)), (x) => x.segment).slice(0, 10).join("")}...`],
  ])("%j (max_chars %i) → %j", (input, max_chars, expected) => {
    expect(fallbackTitle(input, { max_chars })).toBe(expected);
    expect(fallbackTitle(input, { max_chars })).toBe(reference(input, max_chars));
  });

  it("Markdown is stripped before the length rule", () => {
    expect(fallbackTitle(`**${"a".repeat(50)}**`)).toBe("a".repeat(50));
    expect(fallbackTitle(`[${"word ".repeat(9)}](https://e.x/${"p".repeat(500)})`)).toBe(`${"word ".repeat(9).trim()}`);
    expect(fallbackTitle("```python\nprint('hi')\n```")).toBe("print('hi')");
  });

  it("a config without a usable max_chars (JSON from the server) uses the default instead of looping", () => {
    for (const max_chars of [undefined, Number.NaN, 0, -5, 2.5, "60"]) {
      expect(fallbackTitle("a".repeat(70), { max_chars } as never)).toBe(`${"a".repeat(50)}...`);
    }
  });

  it("only Markdown syntax → New Conversation", () => {
    for (const s of ["#", "---", "```\n```", "![](x.png)", "> ", "- "]) expect(fallbackTitle(s)).toBe(EMPTY_TITLE);
  });
});
