import { describe, expect, it } from "vitest";
import { stripThinkTags } from "./think";

describe("stripThinkTags", () => {
  it.each([
    ["spec example", "<think>用户想研究贵阳。</think>贵阳发展研究", "贵阳发展研究"],
    ["no tags", "Plain title", "Plain title"],
    ["empty", "", ""],
    ["case-insensitive", "<THINK>x</Think>Title", "Title"],
    ["space in the tags", "<think >x</think >Title", "Title"],
    ["attributes", '<think type="reasoning">x</think>Title', "Title"],
    ["newlines inside", "<think>\nline 1\nline 2\n</think>\nTitle", "\nTitle"],
    ["text before and after", "a<think>x</think>b", "ab"],
    ["every closed block", "a<think>1</think>b<think>2</think>c", "abc"],
    ["unclosed removes the rest", "a<think>b c d", "a"],
    ["only thinking", "<think>only thinking", ""],
    ["closed then unclosed", "a<think>1</think>b<think>2", "ab"],
    ["unclosed after text with a later stray tag name", "Title<think>x <think> y", "Title"],
    ["nested blocks", "<think>a<think>b</think>c</think>Title", "Title"],
    ["stray close: reasoning before it is dropped", "I should pick a title.</think>Trip Plan", "Trip Plan"],
    ["stray close after a block drops all earlier text", "x<think>r</think>y</think>z", "z"],
    ["self-closing tag", "<think/>Title", "Title"],
    ["<thinking> is not <think>", "<thinking>x</thinking>Title", "<thinking>x</thinking>Title"],
    ["other tags stay", "<b>Bold</b>", "<b>Bold</b>"],
    ["< without tag", "a < b > c", "a < b > c"],
  ])("%s", (_, input, expected) => {
    expect(stripThinkTags(input)).toBe(expected);
  });

  it("handles large input", () => {
    const big = "<think>x</think>y".repeat(50_000);
    expect(stripThinkTags(big)).toBe("y".repeat(50_000));
  });

  it.each([
    ["many stray closes", "x</think>".repeat(100_000) + "end", "end"],
    ["many opens without >", "<think".repeat(100_000), "<think".repeat(100_000)],
    ["many unclosed opens", "t<think>".repeat(100_000), "t"],
  ])("handles %s", (_, input, expected) => {
    expect(stripThinkTags(input)).toBe(expected);
  });
});
