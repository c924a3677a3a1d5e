import { describe, expect, it } from "vitest";
import { AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { jsonPath } from "./search-sql";
import { titleTerms } from "@/lib/title/search-words";
import { ftsQuery, tsQuery } from "./search-terms";
import { toJsonValue } from "./serde";
import { encodeEvent, parseLastEventId } from "../http/sse";
import { pathSegments } from "../http/router";

describe("SSE encoding", () => {
  it("writes event, data and id, and splits raw newlines into data lines", () => {
    const text = (e: Parameters<typeof encodeEvent>[0]) => new TextDecoder().decode(encodeEvent(e));
    expect(text({ id: 7, event: "values", data: '{"a":1}' })).toBe('event: values\ndata: {"a":1}\nid: 7\n\n');
    expect(text({ id: 1, event: "x", data: "a\nb" })).toBe("event: x\ndata: a\ndata: b\nid: 1\n\n");
  });

  it("reads Last-Event-ID leniently: absent, -1 and garbage all mean from the start", () => {
    expect(parseLastEventId(null)).toBe(-1);
    expect(parseLastEventId("-1")).toBe(-1);
    expect(parseLastEventId("12")).toBe(12);
    expect(parseLastEventId("1710000000-0")).toBe(-1);
    // Empty, and number forms that are not our decimal ids (Number() read "0x3" as 3, "" as 0).
    for (const raw of ["", "  ", "0x3", "1e1", "1.5", "abc", "-2", "+3"]) expect(parseLastEventId(raw), raw).toBe(-1);
    expect(parseLastEventId(" 3 ")).toBe(3);
    expect(parseLastEventId("0")).toBe(0);
  });
});

describe("title search query", () => {
  it("quotes and prefix-matches every word, folded, so FTS syntax in user text is inert", () => {
    expect(ftsQuery("Lisbon trip")).toBe('"lisbon"* "trip"*');
    expect(ftsQuery("Café ÜBER")).toBe('"cafe"* "uber"*');
    expect(ftsQuery('a "b" OR c* NEAR(d)')).toBe('"a"* "b"* "or"* "c"* "near(d"*');
    expect(ftsQuery('say "hi')).toBe('"say"* "hi"*');
    expect(ftsQuery('x"y')).toBe('"x""y"*');
    expect(ftsQuery("  !!! ")).toBeNull();
    expect(ftsQuery("请帮我")).toBe('"请帮我"*');
  });

  it("builds the Postgres tsquery with the same words: each a quoted prefix lexeme, ANDed, no syntax live", () => {
    expect(tsQuery("Lisbon trip")).toBe("'lisbon':* & 'trip':*");
    expect(tsQuery("Café ÜBER")).toBe("'cafe':* & 'uber':*");
    // Operators are words like any other (quoted), or prose punctuation trimmed away (`&`, `!`).
    expect(tsQuery("a | b & !c <-> d")).toBe("'a':* & '|':* & 'b':* & 'c':* & '<->':* & 'd':*");
    expect(tsQuery("it's C++")).toBe("'it''s':* & 'c++':*");
    expect(tsQuery("back\\slash")).toBe("'back\\\\slash':*");
    expect(tsQuery("  !!! ")).toBeNull();
    expect(tsQuery("请帮我")).toBe("'请帮我':*");
    // The same words as the FTS5 query, word for word (each unquoted and unescaped).
    const tsWords = (q: string) => q.split(" & ").map((w) => w.slice(1, -3).replaceAll("''", "'").replaceAll("\\\\", "\\"));
    const ftsWords = (q: string) => q.split(" ").map((w) => w.slice(1, -2).replaceAll('""', '"'));
    for (const text of ["Lisbon trip", 'a "b" OR c* NEAR(d)', "Porting C#/F# code (C++),", "日本語の勉強", "it's a back\\slash"]) {
      expect(tsWords(tsQuery(text)!)).toEqual(ftsWords(ftsQuery(text)!));
    }
  });

  it("indexes each word as written, its pieces between punctuation and its letter runs", () => {
    expect(titleTerms("Porting C#/F# code (C++),")).toBe("Porting C#/F# C# F# C F code C++");
    expect(titleTerms("Pride 🏳️‍🌈!")).toBe("Pride 🏳️‍🌈");
    expect(titleTerms("don't panic")).toBe("don't don t panic");
  });

  it("only builds JSON paths from safe keys", () => {
    expect(jsonPath(["starred"])).toBe('$."starred"');
    expect(() => jsonPath(['a"b'])).toThrow(/Unsupported key/);
    expect(() => jsonPath(["a\\b"])).toThrow(/Unsupported key/);
  });
});

describe("serialisation", () => {
  it("turns messages into {…data, type} dicts and never throws on odd values", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const out = toJsonValue({ m: [new HumanMessage({ content: "hi", id: "1" }), new AIMessageChunk({ content: "yo", id: "2" })], cyclic, f: () => 1, n: NaN, map: new Map([["k", 1]]) }) as Record<string, unknown>;
    expect((out.m as { type: string; content: string }[]).map((m) => [m.type, m.content])).toEqual([["human", "hi"], ["ai", "yo"]]);
    expect(out.cyclic).toEqual({ a: 1 });
    expect(out).not.toHaveProperty("f");
    expect(out.n).toBeNull();
    expect(out.map).toEqual({ k: 1 });
  });
});

describe("routing", () => {
  it("strips the API root and decodes segments", () => {
    expect(pathSegments("/api/langgraph/threads/a%20b/runs")).toEqual(["threads", "a b", "runs"]);
    expect(pathSegments("/threads")).toEqual(["threads"]);
  });
});
