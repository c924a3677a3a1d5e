import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markdownToPlainText, plainTextPrefix } from "./markdown";
import { rng } from "./test-utils";

describe("markdownToPlainText", () => {
  it("the issue's example", () => {
    expect(markdownToPlainText("# How do I **center** a `div` in [CSS](https://x.y)?")).toBe("How do I center a div in CSS?");
  });

  it("removes `*` and `~` emphasis set right against unspaced scripts, as CommonMark reads it; `_` there stays", () => {
    expect(markdownToPlainText("日本語の質問 **太字**ですか")).toBe("日本語の質問 太字ですか");
    expect(markdownToPlainText("这是**重要**的问题")).toBe("这是重要的问题");
    expect(markdownToPlainText("这是*重要*的~~问题~~吗")).toBe("这是重要的问题吗");
    expect(markdownToPlainText("정말**중요**해요")).toBe("정말중요해요");
    expect(markdownToPlainText("日本_語_です")).toBe("日本_語_です");
    expect(markdownToPlainText("2*3*4 and x**y**z")).toBe("2*3*4 and x**y**z");
  });

  it.each([
    // headings and blockquotes
    ["# Title", "Title"],
    ["###### Six", "Six"],
    ["####### Seven", "####### Seven"],
    ["## Closed heading ##", "Closed heading"],
    ["#hashtag stays", "#hashtag stays"],
    ["#1 priority", "#1 priority"],
    ["C# question", "C# question"],
    ["> quoted", "quoted"],
    ["> > nested quote", "nested quote"],
    [">> tight nested", "tight nested"],
    ["> # quoted heading", "quoted heading"],
    ["a > b", "a > b"],
    // list bullets
    ["- item", "item"],
    ["* item", "item"],
    ["+ item", "item"],
    ["- [ ] task", "task"],
    ["- [x] done", "done"],
    ["> - quoted item", "quoted item"],
    ["-5 degrees", "-5 degrees"],
    ["1. numbered stays", "1. numbered stays"],
    ["first\n- a\n- b", "first a b"],
    // thematic breaks and setext underlines
    ["Title\n=====\nbody", "Title body"],
    ["a\n---\nb", "a b"],
    ["a\n* * *\nb", "a b"],
    ["a\n--\nb", "a -- b"],
    // emphasis
    ["**bold**", "bold"],
    ["__bold__", "bold"],
    ["*it*", "it"],
    ["_it_", "it"],
    ["***both***", "both"],
    ["~~gone~~", "gone"],
    ["**a** and **b**", "a and b"],
    ["(**a**)", "(a)"],
    ["**bold *and it***", "bold and it"],
    ["snake_case_words", "snake_case_words"],
    ["__init__.py", "init.py"],
    ["2*3*4", "2*3*4"],
    ["2 * 3 * 4", "2 * 3 * 4"],
    ["a*b*c", "a*b*c"],
    ["* not emphasis *", "not emphasis *"],
    ["**unclosed", "**unclosed"],
    ["~single~", "~single~"],
    ["foo _bar_baz_ qux", "foo bar_baz qux"],
    // code
    ["`code`", "code"],
    ["``a ` b``", "a ` b"],
    ["`**not bold**`", "**not bold**"],
    ["`snake_case`", "snake_case"],
    ["```ts\nconst x = 1;\n```\nafter", "const x = 1; after"],
    ["~~~\ncode\n~~~", "code"],
    ["```\n# not a heading\n**kept**\n```", "# not a heading **kept**"],
    ["```\nunclosed fence", "unclosed fence"],
    ["````\n```\nstill code\n````", "``` still code"],
    ["```inline```", "inline"],
    ["unmatched ` tick", "unmatched ` tick"],
    // links, images, URLs
    ["[CSS](https://x.y)", "CSS"],
    ['[CSS](https://x.y "Title")', "CSS"],
    ["[**bold link**](u)", "bold link"],
    ["![a cat](cat.png)", "a cat"],
    ["![](cat.png) caption", "caption"],
    ["[text][ref]", "text"],
    ["[not a link]", "[not a link]"],
    ["<https://x.y/a_b_c>", "https://x.y/a_b_c"],
    ["see https://x.y/_a_/b*c*", "see https://x.y/_a_/b*c*"],
    ["go to https://example.com/path.", "go to https://example.com/path."],
    // whitespace and sanitising
    ["  spaced\n\n\nlines  ", "spaced lines"],
    ["\u001b[1m**bold**\u001b[0m", "bold"],
    ["\u202E# evil", "evil"],
    ["", ""],
    ["#", ""],
    ["```", ""],
  ])("%j → %j", (input, expected) => {
    expect(markdownToPlainText(input)).toBe(expected);
  });
});

// Markdown-heavy pieces, mixed with the sanitiser's tricky ones, to hit every rule near a cut.
const MD_PIECES = [
  "a", "word", " ", "\n", "\n\n", "*", "**", "_", "__", "~~", "`", "```", "```ts\n", "~~~", "#", "# ", "## ", "> ", "- ", "+ ",
  "[", "]", "(", ")", "[x](https://e.x/a_b)", "![alt](p.png)", "<https://e.x>", "https://e.x/_y_", "---", "snake_case", "2*3",
  "字", "👨‍👩‍👧‍👦", "\u0301", "\u001b[31m", "\u200b", "\u202e", "\t",
];

function randomMarkdown(next: () => number, pieces: number): string {
  let s = "";
  for (let i = 0; i < pieces; i++) s += MD_PIECES[Math.floor(next() * MD_PIECES.length)];
  return s;
}

describe("plainTextPrefix", () => {
  it("is always a prefix of the whole result, and equal to it when complete", () => {
    const next = rng(11);
    for (let round = 0; round < 300; round++) {
      // Long enough that the cut falls inside lines longer than the inline reach.
      const s = randomMarkdown(next, 200 + Math.floor(next() * 2500));
      const whole = markdownToPlainText(s);
      for (const budget of [1, 40, 300, 2000]) {
        const { text, complete } = plainTextPrefix(s, budget);
        expect(whole.startsWith(text)).toBe(true);
        if (complete) expect(text).toBe(whole);
      }
    }
  });

  it("long single lines with constructs spanning the cut", () => {
    const long = [
      `**${"a".repeat(150)}** ${"b ".repeat(3000)}`,
      `${"x ".repeat(700)}[link text](https://e.x/${"p".repeat(900)}) tail`,
      `${"y".repeat(1400)} \`code\` ${"z".repeat(3000)}`,
      `# ${"h_".repeat(2000)}`,
      `${"-".repeat(5000)}x`,
    ];
    for (const s of long) {
      const whole = markdownToPlainText(s);
      for (const budget of [10, 100, 1000, 3000]) expect(whole.startsWith(plainTextPrefix(s, budget).text)).toBe(true);
    }
  });

  it("property: prefix-consistent on arbitrary strings and on Markdown-piece strings", () => {
    const markdownish = fc.array(fc.constantFrom(...MD_PIECES), { maxLength: 600 }).map((p) => p.join(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), markdownish), fc.integer({ min: 1, max: 500 }), (s, budget) => {
        const { text, complete } = plainTextPrefix(s, budget);
        const whole = markdownToPlainText(s);
        return whole.startsWith(text) && (!complete || text === whole);
      }),
    );
  });
});
