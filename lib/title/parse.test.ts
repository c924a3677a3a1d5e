import { describe, expect, it } from "vitest";
import { CLUSTER_MAX_UNITS } from "./graphemes";
import { MODEL_REPLY_BUDGET, parseModelTitle, readModelReply } from "./parse";

describe("spec examples", () => {
  it("drops the think block", () => {
    expect(parseModelTitle("<think>用户想研究贵阳。</think>贵阳发展研究")).toBe("贵阳发展研究");
  });
  it("unwraps quotes", () => {
    expect(parseModelTitle('"Quoted Title"')).toBe("Quoted Title");
  });
  it("only thinking → null", () => {
    expect(parseModelTitle("<think>only thinking")).toBeNull();
  });
});

describe("quotes", () => {
  it.each([
    ['"A"', "A"],
    ["'A'", "A"],
    ["\u201cA\u201d", "A"],
    ["\u2018A\u2019", "A"],
    ["「A」", "A"],
    ["『A』", "A"],
    ["《A》", "A"],
    ["«A»", "A"],
    ["`A`", "A"],
    ["**A**", "A"],
    [`"'Nested'"`, "Nested"],
    ["\u201c「Deep」\u201d", "Deep"],
    ['" spaced "', "spaced"],
    ['"A" and "B"', '"A" and "B"'],
    ["「A」と「B」", "「A」と「B」"],
    ["'Don't Panic'", "Don't Panic"],
    ["\u2018L\u2019\u00e9t\u00e9\u2019", "L\u2019\u00e9t\u00e9"],
    ["'A' vs 'B'", "'A' vs 'B'"],
    ['"Mismatched\'', '"Mismatched\''],
    ['"Open only', '"Open only'],
    ['He said "hi"', 'He said "hi"'],
    ["《A》《B》", "《A》《B》"],
  ])("%j → %j", (input, expected) => {
    expect(parseModelTitle(input)).toBe(expected);
  });

  it("only quotes → null", () => {
    expect(parseModelTitle('""')).toBeNull();
    expect(parseModelTitle("「」")).toBeNull();
    expect(parseModelTitle('"')).toBe('"');
  });
});

describe("labels and trailing period", () => {
  it.each([
    ["Title: Trip to Kyoto", "Trip to Kyoto"],
    ["title:Trip", "Trip"],
    ["TITLE :  Trip", "Trip"],
    ["Title：东京旅行", "东京旅行"],
    ["**Title:** Trip", "Trip"],
    ["**Title**: Trip", "Trip"],
    ['Title: "Trip"', "Trip"],
    ['"Title: Trip"', "Trip"],
    ["Trip to Kyoto.", "Trip to Kyoto"],
    ["东京旅行。", "东京旅行"],
    ['"Trip."', "Trip"],
    ['"Trip".', "Trip"],
    ["Title: Trip.", "Trip"],
    ["Wait...", "Wait..."],
    ["Entitled: Trip", "Entitled: Trip"],
    ["Subtitle: Trip", "Subtitle: Trip"],
    ["Trip: Title", "Trip: Title"],
    ["What is 2+2?", "What is 2+2?"],
    [".", null],
    ["Title:", null],
  ])("%j → %j", (input, expected) => {
    expect(parseModelTitle(input)).toBe(expected);
  });
});

describe("content shapes", () => {
  it("reads content blocks and message objects", () => {
    expect(parseModelTitle([{ type: "text", text: "Block Title" }])).toBe("Block Title");
    expect(parseModelTitle([{ type: "reasoning", reasoning: "r" }, { type: "text", text: "Answer" }])).toBe("Answer");
    expect(parseModelTitle({ content: "From Message" })).toBe("From Message");
    expect(parseModelTitle([{ type: "text", text: "Two" }, { type: "text", text: "Lines" }])).toBe("Two Lines");
  });

  it.each([null, undefined, 42, {}, [], "", "   ", "\n\t", [{ type: "image_url", image_url: { url: "u" } }]])(
    "%j → null",
    (v) => {
      expect(parseModelTitle(v)).toBeNull();
    },
  );
});

describe("sanitising and capping", () => {
  it("sanitises escapes, bidi controls and whitespace", () => {
    expect(parseModelTitle("\u202Eevil\u001b[31mred\u001b[0m")).toBe("evilred");
    expect(parseModelTitle("  Multi\nLine\u00a0Title  ")).toBe("Multi Line Title");
    expect(parseModelTitle("\u001b]8;;http://x\u001b\\Link\u001b]8;;\u001b\\")).toBe("Link");
  });

  it("a think tag hidden behind an escape sequence is still sanitised afterwards", () => {
    expect(parseModelTitle("<think>x</think>\u001b[1mBold\u001b[0m")).toBe("Bold");
  });

  it("caps at max_chars graphemes as a fallback title is cut: before a word, with '...'", () => {
    expect(parseModelTitle("a".repeat(61))).toBe(`${"a".repeat(57)}...`);
    expect(parseModelTitle("a".repeat(60))).toBe("a".repeat(60));
    expect(parseModelTitle("abcdefghijklmno", { max_chars: 10 })).toBe("abcdefg...");
    expect(parseModelTitle("Autumn Leaf Haikuification Masterclass", { max_chars: 20 })).toBe("Autumn Leaf...");
    expect(parseModelTitle("An Extraordinarily Comprehensive Autumnal Leaf Haikuification Masterclass Extravaganza")).toBe(
      "An Extraordinarily Comprehensive Autumnal Leaf...",
    );
  });

  it("the cap never splits a grapheme", () => {
    const family = "👨‍👩‍👧‍👦";
    expect(parseModelTitle(family.repeat(11), { max_chars: 10 })).toBe(`${family.repeat(7)}...`);
    expect(parseModelTitle("🇯🇵".repeat(11), { max_chars: 10 })).toBe(`${"🇯🇵".repeat(7)}...`);
    expect(parseModelTitle("e\u0301".repeat(11), { max_chars: 10 })).toBe(`${"e\u0301".repeat(7)}...`);
  });
});

describe("markdown heading and cost", () => {
  it.each([
    ["# Trip to Kyoto", "Trip to Kyoto"],
    ["## **Trip**", "Trip"],
    ["#hashtag", "#hashtag"],
    ["C# Generics", "C# Generics"],
  ])("%j → %j", (input, expected) => {
    expect(parseModelTitle(input)).toBe(expected);
  });

  it("an unclosed think block hides what follows it", () => {
    expect(parseModelTitle("Kyoto Trip <think>maybe better: Osaka")).toBe("Kyoto Trip");
    expect(parseModelTitle("<think>".repeat(5000))).toBeNull();
  });

  it("a huge reply, even a wall of nested quotes, is cleaned and bounded", () => {
    const walls = ['"'.repeat(1_000_000), `${"«".repeat(500_000)}${"»".repeat(500_000)}`, "x. ".repeat(400_000)];
    for (const w of walls) parseModelTitle(w);
    expect(readModelReply("a".repeat(10_000))).toMatchObject({ truncated: true });
    expect(readModelReply("a".repeat(10_000)).raw).toHaveLength(MODEL_REPLY_BUDGET);
  });
});

describe("a character piled with marks", () => {
  const piled = (n: number) => "Z" + "\u0301".repeat(n);

  it("keeps at most CLUSTER_MAX_UNITS units of it, and the words after it", () => {
    const title = parseModelTitle(`${piled(1500)} trip plan`);
    expect(title).toBe(`${piled(CLUSTER_MAX_UNITS - 1)} trip plan`);
  });

  it("marks left at the front once a label or quotes are taken off go too", () => {
    expect(parseModelTitle("Title: \u0301Trip to Porto")).toBe("Trip to Porto");
    expect(parseModelTitle('"\u0301\u0308Trip to Porto"')).toBe("Trip to Porto");
  });

  it("past the reply budget, keeps its clamped start only", () => {
    expect(parseModelTitle(`${piled(MODEL_REPLY_BUDGET * 3)} trip plan`)).toBe(piled(CLUSTER_MAX_UNITS - 1));
  });
});
