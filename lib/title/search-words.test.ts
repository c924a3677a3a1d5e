import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { queryWords, searchTerms, titleMatches } from "./search-words";

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
