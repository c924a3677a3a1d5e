import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { searchTerms } from "@/lib/title/search-words";
import { SEARCH_INDEX_VERSION, SEARCH_TOKENIZER } from "./search-terms";

// Titles that touch every rule of the stored terms: spaced words, symbols kept in names, inner
// punctuation, accents, the letters folded by hand, Arabic and Hebrew marks, apostrophes, scripts
// written without spaces (from every character), Korean, emoji, and a term past the byte cap.
const PROBES = [
  "Plan a trip to Lisbon",
  "Fix src/lib/foo.ts and https://example.com/a?b=1",
  "الكتاب والقلم للطلاب",
  "C++ vs C# for #42 @team (tips, tricks)",
  "state-of-the-art e-mail & R&D: v2.0/v3.1",
  "Café Crème Brûlée à la carte",
  "Straße ılık ŁÓDŹ Øresund Æsir œuvre þorn đ ð ħ ŧ ſ",
  "مَرْحَبًا بالعالم",
  "שָׁלוֹם עולם",
  "Don’t ‘quote’ rock ʼn′ roll",
  "我想学习机器学习的基础知识",
  "機械学習を勉強したいです",
  "ภาษาไทยสำหรับผู้เริ่มต้น",
  "한국어 공부 계획",
  "Emoji 👨‍👩‍👧‍👦 family 🇵🇹 flag",
  "👨‍👩‍👧‍👦".repeat(100),
  "ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ ①②",
];

/**
 * A larger, generated corpus for rules the probes miss: 1,000 titles of 1–12 words drawn from
 * letters, marks, punctuation and symbols of many scripts, one word in ten a long path, by a fixed PRNG (not a library's
 * generator, whose output may change with its version), so the titles are the same on every run.
 */
function generatedTitles(count: number, seed: number): string[] {
  let state = seed >>> 0;
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
  const pools = [
    range(0x61, 0x7a), range(0x41, 0x5a), range(0x30, 0x39), range(0xc0, 0xff), range(0x100, 0x17f),
    [..."._-/@#+&'’:,()?!%$*~=|\\\"“”«»…—–·"],
    range(0x621, 0x64a), range(0x64b, 0x652), range(0x5d0, 0x5ea), range(0x5b0, 0x5bc),
    range(0x4e00, 0x4e80), range(0x3041, 0x3096), range(0x30a1, 0x30fa), range(0xe01, 0xe3a), range(0xac00, 0xac60),
    range(0x1f600, 0x1f64f), ["\u200d", "\ufe0f", "\u{1f3fb}", "\u{1f1f5}\u{1f1f9}"], range(0xff21, 0xff3a), range(0x300, 0x36f),
    range(0x391, 0x3c9), range(0x410, 0x44f),
  ];
  const spaces = [" ", " ", " ", "\u00a0", "\u3000", "\t"];
  return Array.from({ length: count }, () => {
    const words = Array.from({ length: 1 + Math.floor(next() * 12) }, () => {
      // One word in ten is a path or address: many short parts joined by punctuation.
      if (next() < 0.1) return Array.from({ length: 2 + Math.floor(next() * 28) }, () => pick(pools[0]).repeat(1 + Math.floor(next() * 3))).join(pick(pools[5]));
      const pool = pick(pools);
      return Array.from({ length: 1 + Math.floor(next() * 10) }, () => (next() < 0.8 ? pick(pool) : pick(pick(pools)))).join("");
    });
    return words.map((w, i) => (i ? pick(spaces) : "") + w).join("");
  });
}

/**
 * What the index stores for PROBES, and how it splits it. A database keeps the terms it was built
 * with: when this digest changes, existing databases would look for terms they do not hold, so
 * SEARCH_INDEX_VERSION must change with it (start-up then rebuilds the index), and both are
 * recorded here together.
 */
describe("the search index's version", () => {
  it("changes whenever the stored terms do", () => {
    const digest = createHash("sha256")
      .update(JSON.stringify({ tokenizer: SEARCH_TOKENIZER, terms: PROBES.map(searchTerms) }))
      .digest("hex")
      .slice(0, 16);
    expect({ version: SEARCH_INDEX_VERSION, digest }).toEqual({ version: 7, digest: "e67f4485ce45b658" });
  });

  it("changes whenever the stored terms of a generated corpus do", () => {
    const titles = generatedTitles(1000, 20261207);
    // The corpus is what it is meant to be: long titles, many scripts and punctuation runs.
    expect(titles.filter((t) => t.length > 60).length).toBeGreaterThan(200);
    expect(titles.filter((t) => /\p{Script=Arabic}/u.test(t) && /\p{Script=Han}/u.test(t)).length).toBeGreaterThan(20);
    const digest = createHash("sha256")
      .update(JSON.stringify({ tokenizer: SEARCH_TOKENIZER, terms: titles.map(searchTerms) }))
      .digest("hex")
      .slice(0, 16);
    expect({ version: SEARCH_INDEX_VERSION, digest }).toEqual({ version: 7, digest: "044fa0b8d1d3d47e" });
  });
});
