import { describe, expect, it } from "vitest";
import { parseTitleSource, sameTitleFact, titleFactOf } from "./fact";

describe("title facts", () => {
  it("reads a source from an object or its JSON text, and refuses anything else", () => {
    expect(parseTitleSource({ kind: "model", model: "gpt" })).toEqual({ kind: "model", model: "gpt" });
    expect(parseTitleSource('{"kind":"user"}')).toEqual({ kind: "user" });
    expect(parseTitleSource({ kind: "model", model: "" })).toEqual({ kind: "model" });
    expect(parseTitleSource(null)).toBeNull();
    expect(parseTitleSource([{ kind: "user" }])).toBeNull();
  });

  it("reads a fact from state values; no title means no source", () => {
    expect(titleFactOf({ title: "Trip", title_source: { kind: "fallback" } })).toEqual({ title: "Trip", source: { kind: "fallback" } });
    expect(titleFactOf({ title: null, title_source: { kind: "user" } })).toEqual({ title: null, source: null });
    expect(titleFactOf(undefined)).toEqual({ title: null, source: null });
  });

  it("compares title and provenance, not key order or an absent model", () => {
    const a = { title: "Trip", source: { kind: "model" as const, model: "m" } };
    expect(sameTitleFact(a, { title: "Trip", source: { model: "m", kind: "model" } })).toBe(true);
    expect(sameTitleFact({ title: "T", source: { kind: "user" } }, { title: "T", source: { kind: "user", model: undefined } })).toBe(true);
    expect(sameTitleFact(a, { title: "Trip", source: { kind: "model", model: "other" } })).toBe(false);
    expect(sameTitleFact(a, { title: "Trip", source: { kind: "user" } })).toBe(false);
    expect(sameTitleFact(a, { title: "Trap", source: a.source })).toBe(false);
    expect(sameTitleFact({ title: null, source: null }, { title: null, source: null })).toBe(true);
  });
});
