import { describe, expect, it } from "vitest";
import { contentToText } from "./content";

describe("contentToText", () => {
  it("returns a string as is (no trimming)", () => {
    expect(contentToText("  hello\n")).toBe("  hello\n");
    expect(contentToText("")).toBe("");
  });

  it("joins the non-empty parts of a list with newlines", () => {
    expect(
      contentToText([
        { type: "text", text: "first" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        "second",
        { type: "text", text: "" },
        { type: "text", text: "third" },
      ]),
    ).toBe("first\nsecond\nthird");
  });

  it("recurses into nested lists and content fields", () => {
    expect(contentToText([["a", ["b"]], { content: [{ text: "c" }, { content: "d" }] }])).toBe("a\nb\nc\nd");
  });

  it("prefers a string text over content", () => {
    expect(contentToText({ text: "t", content: "c" })).toBe("t");
    expect(contentToText({ text: "", content: "c" })).toBe("");
    expect(contentToText({ text: 42, content: "c" })).toBe("c");
    expect(contentToText({ text: null, content: [{ text: "x" }] })).toBe("x");
  });

  it("image-only and non-text blocks give the empty string", () => {
    expect(contentToText([{ type: "image_url", image_url: { url: "https://x/y.png" } }])).toBe("");
    expect(contentToText({ type: "image", source_type: "base64", data: "AAAA" })).toBe("");
    expect(contentToText([{ type: "reasoning", reasoning: "hidden" }, { type: "tool_use", input: { a: 1 } }])).toBe("");
    expect(contentToText([])).toBe("");
  });

  it.each([null, undefined, 0, 42, true, false, Symbol("s"), () => "f", 10n])("other values → empty (%s)", (v) => {
    expect(contentToText(v)).toBe("");
  });

  it("reads a message-like object's text getter (LangChain AIMessage.text)", () => {
    class FakeAIMessage {
      content = [{ type: "reasoning", reasoning: "r" }, { type: "text", text: "answer" }];
      get text() {
        return "answer";
      }
    }
    expect(contentToText(new FakeAIMessage())).toBe("answer");
    expect(contentToText({ content: "plain message" })).toBe("plain message");
  });

  it("does not loop forever on self-referencing content", () => {
    const a: { content?: unknown } = {};
    a.content = a;
    const list: unknown[] = ["x"];
    list.push(list);
    expect(contentToText(a)).toBe("");
    expect(contentToText(list)).toBe("x");
  });
});

describe("contentToText depth", () => {
  it("reads text nested up to the cap", () => {
    let nested: unknown = "deep";
    for (let i = 0; i < 31; i++) nested = [nested];
    expect(contentToText(nested)).toBe("deep");
  });

  it("a shared (non-cyclic) block is read every time it appears", () => {
    const block = { type: "text", text: "same" };
    expect(contentToText([block, block])).toBe("same\nsame");
  });
});
