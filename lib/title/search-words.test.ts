import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { queryWords, searchTerms, titleMatches, clampTitleSearch, TITLE_SEARCH_MAX } from "./search-words";

const matches = (title: string, query: string) => titleMatches(title, queryWords(query));

describe("titleMatches (the index's rule, also the sidebar's)", () => {
  it("each query word is a prefix of one of the title's words, all of them", () => {
    expect(matches("C++ templates explained", "c++")).toBe(true);
    expect(matches("C++ templates explained", "temp expl")).toBe(true);
    expect(matches("C++ templates explained", "templates python")).toBe(false);
    expect(matches("C++ templates explained", "plates")).toBe(false);
    expect(matches("Porting C#/F# code", "f#")).toBe(true);
    expect(matches("Café au lait", "CAFE")).toBe(true);
    expect(matches("Trip to Lisbon, in May", "lisbon,")).toBe(true);
    expect(matches("日本語の勉強", "日本")).toBe(true);
  });

  it("finds unspaced scripts from any character: a run of up to 8 as it stands, a longer one by its words", () => {
    const zh = "我想学习机器学习的基础知识和深度学习的应用场景";
    for (const q of ["学习", "机器学习", "习", "器学", "应用场景", "机器学习的基础知识", "深度 学习"]) expect(matches(zh, q)).toBe(true);
    expect(matches(zh, "火车")).toBe(false);
    expect(matches(zh, "学习火车")).toBe(false);
    expect(matches("東京の天気を教えてください。明日は", "天気")).toBe(true);
    expect(matches("東京の天気を教えてください。明日は", "天气")).toBe(false);
    expect(matches("ช่วยแนะนำร้านอาหารไทย", "ร้านอาหาร")).toBe(true);
    expect(matches("ช่วยแนะนำร้านอาหารไทย", "อาหาร")).toBe(true);
    expect(matches("iPhone手机推荐", "手机")).toBe(true);
    expect(matches("iPhone手机推荐", "iphone")).toBe(true);
  });

  it("finds a Latin word of any length inside unspaced text, whole or by its start", () => {
    const cases: [string, string[]][] = [
      ["如何部署Kubernetes集群", ["Kubernetes", "kubernetes 集群", "Kuberne", "部署Kubernetes"]],
      ["学习JavaScript的技巧", ["JavaScript", "javascript 技巧"]],
      ["はじめてのKubernetes入門", ["Kubernetes", "入門"]],
      ["用PostgreSQL建索引", ["PostgreSQL", "postgres", "索引"]],
      ["部署Node.js服务", ["node.js", "Node", "服务"]],
    ];
    for (const [title, queries] of cases) for (const q of queries) expect(matches(title, q), `${title} / ${q}`).toBe(true);
    expect(matches("如何部署Kubernetes集群", "Kubernetesx")).toBe(false);
    expect(matches("如何部署Kubernetes集群", "ubernetes")).toBe(false); // a word is found from its start, as elsewhere
  });

  it("folds Greek's final sigma, so a query that stops inside a word still finds it", () => {
    for (const q of ["ΑΣ", "ας", "Αστρο", "αστρονομία"]) expect(matches("Αστρονομία για αρχάριους", q), q).toBe(true);
    for (const q of ["αρχάριους", "ΑΡΧΑΡΙΟΥΣ", "αρχαριουσ"]) expect(matches("Αστρονομία για αρχάριους", q), q).toBe(true);
    expect(matches("Αστρονομία για αρχάριους", "αστρα")).toBe(false);
  });

  it("a letter that folds to punctuation at a word's edge (ŉ is ʼn) still leaves the word findable", () => {
    expect(matches("ŉ", "n")).toBe(true);
    expect(matches("Rock ʼn roll", "n")).toBe(true);
  });

  it("folds what people type without the letters' keys: ı, ß, ø, đ, æ, œ, ł, typographic apostrophes, Arabic and Hebrew vowel marks", () => {
    expect(matches("İSTANBUL'da ılık hava ve IĞDIR", "ILIK")).toBe(true);
    expect(matches("IĞDIR ılık", "ığdır")).toBe(true);
    expect(matches("Die Straße nach Köln", "strasse")).toBe(true);
    expect(matches("Die STRASSE nach Köln", "straße")).toBe(true);
    expect(matches("Don\u2019t panic about l\u2019\u00e9cole", "don't l'ecole")).toBe(true);
    expect(matches("Don't panic", "don\u2019t")).toBe(true);
    expect(matches("مَرْحَبًا بِكُمْ في الدرس", "مرحبا")).toBe(true);
    expect(matches("שָׁלוֹם עולם", "שלום")).toBe(true);
    expect(matches("בית־ספר", "בית")).toBe(true);
    for (const [title, q] of [["Đà Nẵng", "da nang"], ["Øresund", "oresund"], ["Ærø", "aero"], ["Łódź", "lodz"], ["cœur", "coeur"]]) expect(matches(title, q)).toBe(true);
  });

  it("keeps every term and query word within 1,000 UTF-8 bytes (Postgres wraps a lexeme past 2,047), cut alike", () => {
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}";
    const title = family.repeat(100);
    const bytes = (t: string) => new TextEncoder().encode(t).length;
    for (const term of searchTerms(title).split(" ")) expect(bytes(term)).toBeLessThanOrEqual(1000);
    expect(matches(title, family.repeat(19))).toBe(true);
    expect(matches(title, family.repeat(100))).toBe(true);
    // A title stored before titles were clamped: a letter under 300,000 marks stays small.
    expect(searchTerms(`\u0e0d${"\u0e48".repeat(300_000)}`).length).toBeLessThan(20_000);
  });

  it("a long unspaced run with no dictionary word (symbols) is read from its start, and repeated words count once", () => {
    const khmer = "\u19e0".repeat(9);
    expect(matches(khmer, khmer)).toBe(true);
    expect(queryWords("学习 学习 学习")).toEqual(["学习"]);
  });

  it("inside a word, starts after punctuation too, and an Arabic word is found without its joined article", () => {
    expect(matches("Fix the import in src/lib/foo.ts", "foo.ts")).toBe(true);
    expect(matches("Fix the import in src/lib/foo.ts", "lib/foo")).toBe(true);
    expect(matches("Read https://example.com/docs?page=2", "example.com/docs")).toBe(true);
    expect(matches("A state-of-the-art kitchen", "the-art")).toBe(true);
    expect(matches("Fix the import in src/lib/foo.ts", "oo.ts")).toBe(false);
    expect(matches("Fix the import in src/lib/foo.ts", "ts")).toBe(true);
    expect(matches("Donaudampfschiff fahren", "dampfschiff")).toBe(false);
    expect(matches("مقدمة الكتاب", "كتاب")).toBe(true);
    expect(matches("والكتاب الأحمر", "كتاب")).toBe(true);
    expect(matches("للطلاب الجدد", "طلاب")).toBe(true);
    expect(matches("مقدمة الكتاب", "الكتاب")).toBe(true);
    expect(matches("والكتاب الأحمر", "الكتاب")).toBe(true);
    expect(matches("الْكِتَابُ الأَحْمَرُ", "كتاب")).toBe(true);
    expect(matches("Write to me@example.com", "example.com")).toBe(true);
    expect(matches("Ping @team about #42", "team")).toBe(true);
    // A word of many punctuation runs keeps the rests after its first and last 8 only.
    const dotted = Array.from({ length: 100 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(".");
    expect(searchTerms(dotted).split(" ").length).toBeLessThan(50);
    expect(matches(dotted, dotted.slice(-7))).toBe(true);
    // Two letters must be left: "ال" alone and "الى" ("to") stay words of their own.
    expect(searchTerms("الى ال").split(" ")).toEqual(["الى", "ال"]);
  });

  it("no searchable word matches nothing", () => {
    expect(matches("Anything at all", "")).toBe(false);
    expect(matches("Anything at all", " ,;! ")).toBe(false);
  });

  it("finds a title by any prefix of any of its terms (fuzzed titles up to 60 graphemes)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), fc.nat(), fc.nat(), (title, pick, cut) => {
        const terms = searchTerms(title).split(" ").filter(Boolean);
        fc.pre(terms.length > 0);
        const term = terms[pick % terms.length];
        const prefix = term.slice(0, 1 + (cut % term.length));
        fc.pre(queryWords(prefix).length > 0);
        expect(titleMatches(title, queryWords(prefix))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("clampTitleSearch", () => {
  it("trims, keeps what fits, and cuts a longer text between graphemes to at most TITLE_SEARCH_MAX units", () => {
    expect(clampTitleSearch("  lisbon  ")).toBe("lisbon");
    const fits = "x".repeat(TITLE_SEARCH_MAX);
    expect(clampTitleSearch(fits)).toBe(fits);
    expect(clampTitleSearch(`bulk ${"x".repeat(600)}`)).toBe(`bulk ${"x".repeat(TITLE_SEARCH_MAX - 5)}`);
    // An emoji family (11 units) that would cross the limit is left out whole, never split.
    const family = "👨‍👩‍👧‍👦";
    const cut = clampTitleSearch("a".repeat(TITLE_SEARCH_MAX - 5) + family);
    expect(cut).toBe("a".repeat(TITLE_SEARCH_MAX - 5));
    expect(clampTitleSearch(family.repeat(60)).length).toBeLessThanOrEqual(TITLE_SEARCH_MAX);
    expect(clampTitleSearch(family.repeat(60)).length % family.length).toBe(0);
  });
});
