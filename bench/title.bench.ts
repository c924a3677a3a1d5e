import { bench, describe } from "vitest";
import { fallbackTitle, sanitizeTitleText } from "@/lib/title";

// Fallback titles are computed on every first message, in the browser too: the cost must not
// grow with the message. The naive variant segments the whole text first (what a plain
// `[...new Intl.Segmenter().segment(text)]` does), for comparison.
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
function naiveFallback(text: string): string {
  const graphemes = Array.from(segmenter.segment(sanitizeTitleText(text)), (s) => s.segment);
  return graphemes.length > 50 ? `${graphemes.slice(0, 50).join("").trimEnd()}...` : graphemes.join("");
}

const sentence = "Plan a three day trip to Lisbon with good food, 👨‍👩‍👧 family friendly museums 🇵🇹 ";
const sizes = { "100 B": 100, "10 KB": 10_000, "1 MB": 1_000_000 } as const;
const markdownUnit = "## **Bold** _it_ `code` [link](https://e.x/a_b) ![img](p.png)\n> - item ~~gone~~ snake_case\n";
const worstCases = {
  "1 MB of Markdown": markdownUnit.repeat(Math.ceil(1_000_000 / markdownUnit.length)),
  "1 MB that strips to almost nothing": `${"---\n![](p.png)\n".repeat(62_500)}tail`,
  "1 MB of spaces then one letter": `${" ".repeat(1_000_000)}x`,
};
const texts = Object.fromEntries(
  Object.entries(sizes).map(([name, n]) => [name, sentence.repeat(Math.ceil(n / sentence.length)).slice(0, n)]),
);

for (const [name, text] of Object.entries(texts)) {
  describe(`fallbackTitle, ${name} message`, () => {
    bench("lib/title fallbackTitle (bounded)", () => {
      fallbackTitle(text);
    });
    if (text.length <= 10_000) {
      bench("naive: segment the whole text", () => {
        naiveFallback(text);
      });
    }
  });
}

describe("fallbackTitle, worst cases (must stay linear)", () => {
  for (const [name, text] of Object.entries(worstCases)) {
    bench(name, () => {
      fallbackTitle(text);
    });
  }
});
