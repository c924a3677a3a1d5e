import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_TITLE_CONFIG, type TitleConfig } from "./config";
import { sanitizeTitleText } from "./sanitize";
import { validateModelTitle } from "./validate";

const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const graphemeCount = (s: string) => Array.from(seg.segment(s)).length;

const EN = "How do I center a div in CSS?";
const check = (output: unknown, userText = EN, config: TitleConfig = DEFAULT_TITLE_CONFIG) =>
  validateModelTitle(output, { userText, config });
const reasonOf = (output: unknown, userText = EN, config?: TitleConfig) => {
  const v = check(output, userText, config);
  return v.ok ? `ok: ${v.title}` : v.reason;
};

describe("accepted titles come out cleaned", () => {
  it.each([
    ["Centering a Div in CSS", "Centering a Div in CSS"],
    ['"Centering a Div"', "Centering a Div"],
    ["Title: Centering a Div.", "Centering a Div"],
    ["<think>They want CSS.</think>CSS Centering", "CSS Centering"],
    ["**CSS Centering**", "CSS Centering"],
    ["# CSS Centering", "CSS Centering"],
    [[{ type: "text", text: "From Blocks" }], "From Blocks"],
    [{ content: "From a Message" }, "From a Message"],
    ["What Is Flexbox? A Primer", "What Is Flexbox? A Primer"],
    ["Dr. Smith vs. Jones on CSS", "Dr. Smith vs. Jones on CSS"],
    ["J. R. R. Tolkien Reading List", "J. R. R. Tolkien Reading List"],
    ["Node.js vs. Deno", "Node.js vs. Deno"],
    ["Steps 1. Setup 2. Deploy", "Steps 1. Setup 2. Deploy"],
    ["Wait... What? Div Centering", "Wait... What? Div Centering"],
    ["I Can't Center My Div", "I Can't Center My Div"],
    ["I Can't Do Math Anymore", "I Can't Do Math Anymore"],
    ["I Cannot Helpfully Summarize", "I Cannot Helpfully Summarize"],
    ["Here Comes the Sun Chords", "Here Comes the Sun Chords"],
    ["Sorting Sure-Fire Ways", "Sorting Sure-Fire Ways"],
    ["Okapi Facts", "Okapi Facts"],
    ["2024", "2024"],
    ["🎨✨", "🎨✨"],
    ["CSS Centering\n", "CSS Centering"],
    ["\n\nCSS Centering\n\n", "CSS Centering"],
    ["**Title:**\nCSS Centering", "CSS Centering"],
    ["Title:\r\n\"CSS Centering\"", "CSS Centering"],
    ["<think>a\nb\nc</think>\nCSS Centering", "CSS Centering"],
  ])("%j → %j", (output, title) => {
    expect(check(output)).toEqual({ ok: true, title });
  });

  it("a long single-line title is cut to max_chars graphemes, not rejected", () => {
    const long = "Supercalifragilisticexpialidocious Antidisestablishmentarianism Pneumonoultramicroscopic";
    expect(check(long)).toEqual({ ok: true, title: "Supercalifragilisticexpialidocious Antidisestablishmentar..." });
  });
});

describe("rejections", () => {
  it.each([
    ["", "empty"],
    ["   \n\t", "empty"],
    [null, "empty"],
    [42, "empty"],
    ['""', "empty"],
    ["Title:", "empty"],
    ["\u200b\u202e", "empty"],
    ["<think>Let me think about a name</think>", "think-only"],
    ["<think>never finished", "think-only"],
    ["<think></think>   ", "think-only"],
    ["I can't help with that.", "refusal"],
    ["I cannot assist with this request", "refusal"],
    ["I can\u2019t provide a title for this", "refusal"],
    ["I won't do that", "refusal"],
    ["I'm unable to help", "refusal"],
    ["I’m not able to assist", "refusal"],
    ["I'm sorry, but I can't", "refusal"],
    ["I am sorry but that is not possible", "refusal"],
    ["Sorry, I can't", "refusal"],
    ["I apologize for the confusion", "refusal"],
    ["As an AI language model, I", "refusal"],
    ["As an AI, I have no opinion", "refusal"],
    ["Unfortunately, I cannot", "refusal"],
    ["Lo siento, no puedo ayudar", "refusal"],
    ["No puedo ayudar con eso", "refusal"],
    ["Désolé, je ne peux pas", "refusal"],
    ["Je ne peux pas vous aider", "refusal"],
    ["Es tut mir leid, das geht nicht", "refusal"],
    ["Ich kann dir leider nicht helfen", "refusal"],
    ["Desculpe, não posso", "refusal"],
    ["Извините, я не могу", "refusal"],
    ["抱歉，我无法帮助你", "refusal"],
    ["我无法提供这个标题", "refusal"],
    ["申し訳ありませんが", "refusal"],
    ["죄송합니다만 도와드릴 수 없습니다", "refusal"],
    ["Sure! Here is a title", "answer-not-title"],
    ["Sure, here you go", "answer-not-title"],
    ["Sure here is one", "answer-not-title"],
    ["Certainly! CSS Centering", "answer-not-title"],
    ["Of course. Use flexbox", "answer-not-title"],
    ["Absolutely: flexbox", "answer-not-title"],
    ["Here is a title for you", "answer-not-title"],
    ["Here's a good one", "answer-not-title"],
    ["Here\u2019s what I suggest", "answer-not-title"],
    ["The answer is flexbox", "answer-not-title"],
    ["The answer to your question is flexbox", "answer-not-title"],
    ["Great question! Flexbox", "answer-not-title"],
    ["¡Claro! Aquí tienes", "answer-not-title"],
    ["Bien sûr, voici", "answer-not-title"],
    ["Natürlich! Hier ist", "answer-not-title"],
    ["Конечно, вот название", "answer-not-title"],
    ["好的，这是标题", "answer-not-title"],
    ["もちろん、タイトルは", "answer-not-title"],
    ["Use flexbox. Then set justify-content. Done", "several-sentences"],
    ["Use flexbox. It works.", "several-sentences"],
    ["Why? Because flexbox!", "several-sentences"],
    ['"Use flexbox." Then align it.', "several-sentences"],
    ["A lot " + "x".repeat(3000), "too-long"],
    ["CSS Centering\nThis conversation is about centering a div", "several-lines"],
    ["CSS Centering\n\n- flexbox\n- grid", "several-lines"],
    ["Option 1: CSS Centering\u2028Option 2: Flexbox", "several-lines"],
    ["one two three four five six seven eight nine ten eleven twelve thirteen", "too-many-words (13 > 12)"],
  ])("%j → %s", (output, reason) => {
    expect(reasonOf(output)).toBe(reason);
  });

  it("sentence ends in scripts without spaces count too", () => {
    expect(reasonOf("使用弹性盒子。然后居中。", "如何居中一个div？")).toBe("several-sentences");
    expect(reasonOf("弹性盒子！居中！完成", "如何居中一个div？")).toBe("several-sentences");
    expect(reasonOf("Div居中方法", "如何居中一个div？")).toBe("ok: Div居中方法");
    expect(reasonOf("यह शीर्षक है। दूसरा वाक्य।", "मैं div को कैसे केंद्रित करूं?")).toBe("several-sentences");
  });

  it("the word bound follows max_words", () => {
    const config = { ...DEFAULT_TITLE_CONFIG, max_words: 3 };
    expect(reasonOf("one two three four five six", EN, config)).toBe("ok: one two three four five six");
    expect(reasonOf("one two three four five six seven", EN, config)).toBe("too-many-words (7 > 6)");
    expect(reasonOf("C++ & Rust — a comparison", EN, config)).toBe("ok: C++ & Rust — a comparison");
  });

  it("text without spaces is measured in characters (a word beside it counts as two)", () => {
    const zh = "如何居中一个div？";
    expect(reasonOf("一二三四五六七八九十一二三四五六七八九十一二三四", zh)).toBe("ok: 一二三四五六七八九十一二三四五六七八九十一二三四");
    expect(reasonOf("一二三四五六七八九十一二三四五六七八九十一二三四五", zh)).toBe("too-many-characters (25 > 24)");
    expect(reasonOf("CSS 一二三四五六七八九十一二三四五六七八九十一二三", zh)).toBe("too-many-characters (25 > 24)");
    // Thai syllables carry several code points; a six-word Thai title passes.
    expect(reasonOf("วิธีจัดกึ่งกลางองค์ประกอบด้วยซีเอสเอส", "จะจัด div ให้อยู่ตรงกลางได้อย่างไร")).toMatch(/^ok: /);
  });
});

describe("script mismatch", () => {
  it.each([
    ["如何在CSS中居中一个div？", "Centering a Div in CSS", "script-mismatch (user: CJK, title: Latin)"],
    ["CSSでdivを中央に配置する方法は？", "Centering a Div", "script-mismatch (user: CJK, title: Latin)"],
    ["Как отцентрировать div в CSS?", "Centering a Div", "script-mismatch (user: Cyrillic, title: Latin)"],
    ["كيف أضع عنصر div في المنتصف؟", "Centering a Div", "script-mismatch (user: Arabic, title: Latin)"],
    ["איך ממרכזים div ב-CSS?", "Centering a Div", "script-mismatch (user: Hebrew, title: Latin)"],
    ["Πώς κεντράρω ένα div;", "Centering a Div", "script-mismatch (user: Greek, title: Latin)"],
    ["div को केंद्र में कैसे रखें?", "Centering a Div", "script-mismatch (user: Devanagari, title: Latin)"],
    ["CSS에서 div를 가운데 정렬하는 방법", "Centering a Div", "script-mismatch (user: Hangul, title: Latin)"],
    ["จะจัด div ให้อยู่ตรงกลางได้อย่างไร", "Centering a Div", "script-mismatch (user: Thai, title: Latin)"],
    ["How do I center a div?", "如何居中", "script-mismatch (user: Latin, title: CJK)"],
    ["How do I center a div?", "Центрирование", "script-mismatch (user: Latin, title: Cyrillic)"],
    ["Как отцентрировать div в CSS?", "如何居中", "script-mismatch (user: Cyrillic, title: CJK)"],
    // Code words are Latin in any language: they do not make an English title acceptable.
    ["Как использовать useEffect в React?", "Using useEffect in React", "script-mismatch (user: Cyrillic, title: Latin)"],
  ])("user %j, title %j → %s", (user, title, reason) => {
    expect(reasonOf(title, user)).toBe(reason);
  });

  it.each([
    ["如何在CSS中居中一个div？", "CSS居中div"],
    ["如何在CSS中居中一个div？", "CSS 中的 Div 居中"],
    // Japanese kana question, all-kanji title: one group.
    ["CSSでdivを中央に配置する方法は？", "中央配置"],
    ["CSSでdivを中央に配置する方法は？", "ディブの中央寄せ"],
    ["Как отцентрировать div в CSS?", "Центрирование div в CSS"],
    ["CSS에서 div를 가운데 정렬하는 방법", "CSS div 가운데 정렬"],
    // Too little text to tell, or code and numbers only: no check.
    ["x", "如何居中"],
    ["42 + 17", "Сложение чисел"],
    ["```\nconst x = 1;\n```", "代码解释"],
    ["https://example.com/some/long/path", "Ссылка"],
    ["", "Anything"],
    // Mixed prose: either language is fine.
    ["什么是 React hooks?", "What Are React Hooks"],
    ["什么是 React hooks?", "React Hooks 简介"],
    ["Explain 量子力学 please", "Quantum Mechanics Explained"],
    ["hi", "Greeting"],
    // A title without letters says nothing about language.
    ["如何在CSS中居中一个div？", "🎯 100%"],
  ])("user %j, title %j → accepted", (user, title) => {
    expect(check(title, user)).toEqual({ ok: true, title });
  });

  it("only the start of a huge user text is sampled", () => {
    expect(check("Centering", `${"How to center ".repeat(200)}${"居中".repeat(500_000)}`)).toEqual({ ok: true, title: "Centering" });
  });
});

describe("properties", () => {
  const configs = fc.record({ max_words: fc.integer({ min: 1, max: 20 }), max_chars: fc.integer({ min: 10, max: 200 }) });
  const text = fc.oneof(fc.string({ unit: "grapheme", maxLength: 120 }), fc.string({ unit: "binary", maxLength: 120 }), fc.string());

  it("never throws, and an accepted title is non-empty, within max_chars and already sanitised", () => {
    fc.assert(
      fc.property(text, text, configs, (output, userText, c) => {
        const config = { ...DEFAULT_TITLE_CONFIG, ...c };
        const v = validateModelTitle(output, { userText, config });
        if (!v.ok) return typeof v.reason === "string" && v.reason !== "";
        return v.title !== "" && graphemeCount(v.title) <= config.max_chars && sanitizeTitleText(v.title) === v.title;
      }),
      { numRuns: 2000 },
    );
  });

  it("never throws on content that is not a string", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (output, userText) => {
        const v = validateModelTitle(output, { userText: userText as string, config: DEFAULT_TITLE_CONFIG });
        return typeof v.ok === "boolean";
      }),
      { numRuns: 500 },
    );
  });
});
