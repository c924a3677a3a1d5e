import { describe, expect, it } from "vitest";
import { sanitizePrefix, sanitizeTitleText } from "./sanitize";
import { randomText, rng } from "./test-utils";

const ESC = "\u001b";

describe("sanitizeTitleText: spec example", () => {
  it("strips a bidi override and SGR colour codes", () => {
    expect(sanitizeTitleText("\u202Eevil\u001b[31mred\u001b[0m")).toBe("evilred");
  });
});

describe("escape sequences", () => {
  it.each([
    ["OSC 8 hyperlink (ST-terminated)", `${ESC}]8;;https://evil.example${ESC}\\Click${ESC}]8;;${ESC}\\ here`, "Click here"],
    ["OSC window title (BEL-terminated)", `${ESC}]0;Fake Title\u0007Real`, "Real"],
    ["OSC terminated by 8-bit ST", `${ESC}]0;x\u009cok`, "ok"],
    ["C1 OSC (U+009D) BEL-terminated", "\u009d0;spoof\u0007ok", "ok"],
    ["C1 OSC (U+009D) ST-terminated", `\u009d0;spoof${ESC}\\ok`, "ok"],
    ["unterminated OSC eats the rest", `keep${ESC}]0;drop all of this`, "keep"],
    ["unterminated C1 OSC eats the rest", "keep\u009ddrop", "keep"],
    ["an ESC inside an OSC does not end it", `a${ESC}]0;x${ESC}[31my\u0007b`, "ab"],
    ["CSI SGR", `a${ESC}[1;31mb`, "ab"],
    ["CSI with private parameters", `a${ESC}[?25lb`, "ab"],
    ["CSI with intermediate byte", `a${ESC}[1 qb`, "ab"],
    ["CSI with no parameters", `a${ESC}[Hb`, "ab"],
    ["CSI cursor movement used to overwrite text", `safe${ESC}[4Devil`, "safeevil"],
    ["C1 CSI (U+009B)", "a\u009b1;31mb", "ab"],
    ["C1 CSI without a final byte drops just the control", "a\u009b12", "a12"],
    ["ESC [ without a final byte drops ESC [ only", `a${ESC}[31`, "a31"],
    ["ESC + one char (RIS)", `a${ESC}cb`, "ab"],
    ["ESC + one char (save cursor)", `a${ESC}7b`, "ab"],
    ["ESC + astral char drops the whole code point", `a${ESC}😀b`, "ab"],
    ["lone ESC at the end", `a${ESC}`, "a"],
    ["ESC ESC [ ... m: the second ESC starts a CSI", `a${ESC}${ESC}[31mb`, "ab"],
  ])("%s", (_, input, expected) => {
    expect(sanitizeTitleText(input)).toBe(expected);
  });
});

describe("control characters", () => {
  it("removes C0 controls, DEL and C1 controls", () => {
    expect(sanitizeTitleText("a\u0000b\u0007c\u007fd\u0008e")).toBe("abcde");
    expect(sanitizeTitleText("a\u0080b\u0090c\u009fd\u009ce")).toBe("abcde");
  });

  it("turns whitespace controls into spaces before collapsing", () => {
    expect(sanitizeTitleText("a\nb\tc\r\nd\u000be\u000cf\u0085g")).toBe("a b c d e f g");
  });
});

describe("invisible characters", () => {
  const removed = [0x200b, 0x200e, 0x200f, 0x061c, 0xfeff];
  for (let c = 0x202a; c <= 0x202e; c++) removed.push(c);
  for (let c = 0x2060; c <= 0x2064; c++) removed.push(c);
  for (let c = 0x2066; c <= 0x206f; c++) removed.push(c);
  it.each(removed.map((c) => [`U+${c.toString(16).toUpperCase().padStart(4, "0")}`, c] as const))("removes %s", (_, c) => {
    expect(sanitizeTitleText(`ab${String.fromCharCode(c)}cd`)).toBe("abcd");
  });

  it("keeps ZWJ and ZWNJ", () => {
    expect(sanitizeTitleText("a\u200db")).toBe("a\u200db");
    expect(sanitizeTitleText("می\u200cخواهم")).toBe("می\u200cخواهم");
    expect(sanitizeTitleText("👨‍👩‍👧")).toBe("👨‍👩‍👧");
  });

  it("an invisible char inside a space run does not split it", () => {
    expect(sanitizeTitleText("a \u200b b")).toBe("a b");
    expect(sanitizeTitleText("\ufeff a")).toBe("a");
  });
});

describe("whitespace", () => {
  it.each([
    ["NBSP", "\u00a0"],
    ["ideographic space", "\u3000"],
    ["em space", "\u2003"],
    ["thin space", "\u2009"],
    ["narrow NBSP", "\u202f"],
    ["medium math space", "\u205f"],
    ["ogham space", "\u1680"],
    ["line separator", "\u2028"],
    ["paragraph separator", "\u2029"],
  ])("%s becomes a plain space", (_, ws) => {
    expect(sanitizeTitleText(`a${ws}b`)).toBe("a b");
  });

  it("collapses mixed runs and trims both ends", () => {
    expect(sanitizeTitleText("  \n a \u00a0\u3000\n\t b \r\n ")).toBe("a b");
  });

  it.each(["", " ", "\n\t\r", "\u00a0\u3000", "\u200b\ufeff", `${ESC}[0m`, " \u0000 "])("%j → empty", (s) => {
    expect(sanitizeTitleText(s)).toBe("");
  });
});

describe("text that must survive", () => {
  it.each([
    "请帮我写测试",
    "Ünïcödé e\u0301",
    "🇯🇵 trip",
    "한국어 제목",
    "\u1100\u1161\u11a8",
    "emoji 👍🏽 ok",
    "[brackets] and \\backslash",
    "مرحبا بالعالم",
  ])("%j is unchanged", (s) => {
    expect(sanitizeTitleText(s)).toBe(s);
  });

  it("drops marks with nothing before them to sit on, and only those", () => {
    expect(sanitizeTitleText("\u0301\u0308Hello")).toBe("Hello");
    expect(sanitizeTitleText(" \u200b\u0301 \u064e\ufe0fHello \u0301x")).toBe("Hello \u0301x");
    expect(sanitizeTitleText("e\u0301\u0301")).toBe("e\u0301\u0301");
    expect(sanitizeTitleText("\u{1d167}\u{1d167}")).toBe("");
    expect(sanitizePrefix("\u0301".repeat(5000) + "abc", 2)).toEqual({ text: "ab", complete: false });
  });

  it("drops lone surrogates but keeps valid pairs", () => {
    expect(sanitizeTitleText("a\ud800b\udc00c😀")).toBe("abc😀");
    expect(sanitizeTitleText("a\ud83d")).toBe("a");
  });
});

describe("sanitizePrefix", () => {
  it("stops early and reports that it did", () => {
    const r = sanitizePrefix("a".repeat(10_000), 100);
    expect(r).toEqual({ text: "a".repeat(100), complete: false });
  });

  it("reports completion when the input is exhausted", () => {
    expect(sanitizePrefix("  a  b  ", 100)).toEqual({ text: "a b", complete: true });
    expect(sanitizePrefix("abc", 3)).toEqual({ text: "abc", complete: true });
  });

  it("never emits a trailing space", () => {
    expect(sanitizePrefix("ab   cd", 2)).toEqual({ text: "ab", complete: false });
  });

  it("fuzz: every budget yields a prefix of the full result; complete means equal", () => {
    const next = rng(1);
    for (let round = 0; round < 300; round++) {
      const s = randomText(next, 1 + Math.floor(next() * 40));
      const full = sanitizeTitleText(s);
      for (let budget = 1; budget <= full.length + 2; budget++) {
        const { text, complete } = sanitizePrefix(s, budget);
        expect(full.startsWith(text)).toBe(true);
        expect(text.length).toBeGreaterThanOrEqual(Math.min(budget, full.length));
        if (complete) expect(text).toBe(full);
      }
    }
  });

  it("fuzz: output is idempotent and free of controls, invisibles and double spaces", () => {
    const next = rng(2);
    for (let round = 0; round < 500; round++) {
      const out = sanitizeTitleText(randomText(next, 30));
      expect(sanitizeTitleText(out)).toBe(out);
      expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/);
      expect(out).not.toMatch(/\s\s|^\s|\s$|[^\S ]/);
      expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });

  it("keepLineBreaks: a whitespace run with a line break becomes one newline, other runs one space", () => {
    expect(sanitizePrefix(" a \t b\n\n  c\r\nd\u2028e \u0085 f \n", Infinity, true)).toEqual({ text: "a b\nc\nd\ne\nf", complete: true });
    expect(sanitizePrefix("a\u001b[31m\n\u200b# b", Infinity, true).text).toBe("a\n# b");
  });

  it("fuzz: keepLineBreaks differs from the plain result only in newlines", () => {
    const next = rng(3);
    for (let round = 0; round < 300; round++) {
      const s = randomText(next, 1 + Math.floor(next() * 40));
      const lines = sanitizePrefix(s, Infinity, true).text;
      expect(lines.replace(/\n/g, " ")).toBe(sanitizeTitleText(s));
      for (const budget of [1, 5, 20]) expect(lines.startsWith(sanitizePrefix(s, budget, true).text)).toBe(true);
    }
  });
});
