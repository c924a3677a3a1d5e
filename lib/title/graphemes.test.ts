import { describe, expect, it } from "vitest";
import { CLUSTER_MAX_UNITS, clampCluster, leadingSanitizedGraphemes, takeGraphemes, truncateGraphemes } from "./graphemes";
import { sanitizeTitleText } from "./sanitize";
import { randomText, rng } from "./test-utils";

const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const all = (s: string) => Array.from(seg.segment(s), (x) => clampCluster(x.segment));
const FAMILY = "👨‍👩‍👧‍👦";

describe("takeGraphemes", () => {
  it("returns whole clusters", () => {
    expect(takeGraphemes(`${FAMILY}🇯🇵e\u0301x`, 3)).toEqual([FAMILY, "🇯🇵", "e\u0301"]);
    expect(takeGraphemes("ab", 5)).toEqual(["a", "b"]);
    expect(takeGraphemes("ab", 0)).toEqual([]);
    expect(takeGraphemes("", 3)).toEqual([]);
  });

  it("a window ending inside a surrogate pair of a ZWJ sequence does not split it", () => {
    // 255 'a's put the family emoji's first high surrogate at the 256-unit window edge.
    const s = `${"a".repeat(255)}${FAMILY.repeat(3)}`;
    expect(takeGraphemes(s, 256)).toEqual([...Array(255).fill("a"), FAMILY]);
    const t = `${"a".repeat(253)}👨\u200d${FAMILY}`;
    expect(takeGraphemes(t, 254)).toEqual([...Array(253).fill("a"), `👨\u200d👨\u200d👩\u200d👧\u200d👦`]);
  });

  it("a window holding only part of the first grapheme keeps growing", () => {
    const huge = `e${"\u0301".repeat(300)}`;
    // Clamped to its first units, and the window grew past it: "x" is the next grapheme.
    expect(takeGraphemes(`${huge}x`, 2)).toEqual([huge.slice(0, CLUSTER_MAX_UNITS), "x"]);
  });

  it("a 256-unit window ending on a high surrogate joined by ZWJ keeps the emoji", () => {
    // 👨 + 252 Extend + ZWJ = 255 units, so 👩's high surrogate is the window's last unit.
    const joined = `👨${"\u0301".repeat(252)}\u200d👩`;
    expect(takeGraphemes(`${joined}x`, 2)).toEqual([joined.slice(0, CLUSTER_MAX_UNITS), "x"]);
  });

  it("fuzz: equals full segmentation for every count, across window growth", () => {
    const next = rng(3);
    for (let round = 0; round < 150; round++) {
      const s = randomText(next, Math.floor(next() * 400));
      const g = all(s);
      for (const max of [1, 2, 31, 32, 33, 50, 51, 200, g.length, g.length + 1]) {
        expect(takeGraphemes(s, max)).toEqual(g.slice(0, max));
      }
    }
  });

  it("takes the first graphemes of 1 MB", () => {
    const big = "字".repeat(1024 * 1024);
    expect(takeGraphemes(big, 500)).toHaveLength(500);
  });
});

describe("truncateGraphemes", () => {
  it("keeps short text and cuts long text on boundaries", () => {
    expect(truncateGraphemes("abc", 3)).toBe("abc");
    expect(truncateGraphemes("abcd", 3)).toBe("abc");
    expect(truncateGraphemes(FAMILY.repeat(4), 2)).toBe(FAMILY.repeat(2));
    expect(truncateGraphemes("🇯🇵🇺🇸🇫🇷", 2)).toBe("🇯🇵🇺🇸");
  });
});

describe("leadingSanitizedGraphemes", () => {
  it("fuzz: equals sanitise-then-segment", () => {
    const next = rng(4);
    for (let round = 0; round < 150; round++) {
      const s = randomText(next, Math.floor(next() * 500));
      const g = all(sanitizeTitleText(s));
      for (const max of [1, 10, 50, 200]) {
        const whole = Array.from(seg.segment(sanitizeTitleText(s)), (x) => x.segment).slice(0, max);
        const long = whole.find((x) => x.length > CLUSTER_MAX_UNITS);
        expect(leadingSanitizedGraphemes(s, max)).toEqual({ graphemes: g.slice(0, max), more: g.length > max, clamped: long === undefined ? null : clampCluster(long) });
      }
    }
  });
});

describe("clampCluster", () => {
  it("keeps every real character whole and cuts a pile of marks at a code point", () => {
    for (const g of [FAMILY, "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "👩🏽\u200d❤️\u200d💋\u200d👨🏿", "🇯🇵", "e\u0301", "\u1100\u1161\u11a8"]) expect(clampCluster(g)).toBe(g);
    expect(clampCluster(`e${"\u0301".repeat(300_000)}`)).toBe(`e${"\u0301".repeat(CLUSTER_MAX_UNITS - 1)}`);
    // A surrogate pair that would straddle the cut is left out whole.
    const g = `e${"\u0301".repeat(CLUSTER_MAX_UNITS - 2)}\u{1D167}`;
    expect(clampCluster(`${g}\u0301`)).toBe(g.slice(0, CLUSTER_MAX_UNITS - 1));
  });
});
