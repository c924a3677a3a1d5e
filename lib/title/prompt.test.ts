import { describe, expect, it } from "vitest";
import { DEFAULT_TITLE_CONFIG, DEFAULT_TITLE_PROMPT, type TitleConfig } from "./config";
import { PROMPT_MESSAGE_MAX_CHARS, buildTitlePrompt } from "./prompt";

const withTemplate = (prompt_template: string, extra: Partial<TitleConfig> = {}): TitleConfig => ({
  ...DEFAULT_TITLE_CONFIG,
  prompt_template,
  ...extra,
});

describe("buildTitlePrompt", () => {
  it("fills every placeholder", () => {
    expect(buildTitlePrompt(withTemplate("{max_words}|{user_msg}|{assistant_msg}"), "hi", "hello")).toBe("6|hi|hello");
    expect(buildTitlePrompt(withTemplate("{max_words} {max_words}", { max_words: 3 }), "", "")).toBe("3 3");
  });

  it("fills the default template", () => {
    const p = buildTitlePrompt(DEFAULT_TITLE_CONFIG, "How do I bake bread?", "Mix flour and water.");
    expect(DEFAULT_TITLE_PROMPT.replace("{max_words}", "6").replace("{user_msg}", "How do I bake bread?").replace("{assistant_msg}", "Mix flour and water.")).toBe(p);
    expect(p).not.toMatch(/\{(max_words|user_msg|assistant_msg)\}/);
  });

  it("does not substitute placeholders found inside the messages", () => {
    expect(buildTitlePrompt(withTemplate("[{user_msg}] [{assistant_msg}]"), "say {assistant_msg} {max_words}", "ok")).toBe(
      "[say {assistant_msg} {max_words}] [ok]",
    );
  });

  it("leaves unknown braces alone and works without {assistant_msg}", () => {
    expect(buildTitlePrompt(withTemplate("{user_msg} {other} {"), "u", "a")).toBe("u {other} {");
  });

  it("treats $ patterns in messages literally", () => {
    expect(buildTitlePrompt(withTemplate("{user_msg}"), "cost $& and $1 $$", "")).toBe("cost $& and $1 $$");
  });

  it("drops the assistant's reasoning and trims both messages", () => {
    expect(buildTitlePrompt(withTemplate("{user_msg}|{assistant_msg}"), "  q  ", "<think>plan</think> answer ")).toBe("q|answer");
  });

  it("bounds long messages on grapheme boundaries", () => {
    expect(PROMPT_MESSAGE_MAX_CHARS).toBe(500);
    const family = "👨‍👩‍👧‍👦";
    const out = buildTitlePrompt(withTemplate("{user_msg}|{assistant_msg}"), family.repeat(600), "b".repeat(1024 * 1024));
    expect(out).toBe(`${family.repeat(500)}|${"b".repeat(500)}`);
  });
});
