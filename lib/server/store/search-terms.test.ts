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
    expect({ version: SEARCH_INDEX_VERSION, digest }).toEqual({ version: 6, digest: "3c4421d0fb85ebc2" });
  });
});
