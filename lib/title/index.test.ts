import { describe, expect, it } from "vitest";
import * as title from "./index";

describe("@/lib/title public API", () => {
  // The settings' schema, loadTitleConfig and TitleConfigError are "@/lib/title/config"'s (the
  // server's): the index stays free of zod for the browser (browser-weight.test.ts).
  it("exports exactly the contract's runtime names", () => {
    expect(Object.keys(title).sort()).toEqual(
      [
        "DEFAULT_TITLE_CONFIG",
        "EMPTY_TITLE",
        "HIDDEN_CONTEXT_KEY",
        "ORIGINAL_USER_TEXT_KEY",
        "USER_TITLE_MAX_CHARS",
        "buildTitleRequest",
        "validateModelTitle",
        "messageAttachments",
        "firstUserMessage",
        "attachmentsTitle",
        "fallbackTitleFor",
        "contentToText",
        "decideTitle",
        "fallbackTitle",
        "firstUserText",
        "isRealUserMessage",
        "messageRole",
        "normalizeUserTitle",
        "parseModelTitle",
        "parseTitleSource",
        "sameTitleFact",
        "titleFactOf",
        "titleLeftBehind",
        "sanitizeTitleText",
        "shouldGenerateTitle",
        "stripThinkTags",
        "userMessageText",
      ].sort(),
    );
  });

  it("has the contract's constant values", () => {
    expect(title.ORIGINAL_USER_TEXT_KEY).toBe("original_user_text");
    expect(title.HIDDEN_CONTEXT_KEY).toBe("threadline_hidden");
    expect(title.EMPTY_TITLE).toBe("New Conversation");
    expect(title.USER_TITLE_MAX_CHARS).toBe(200);
  });

  it("types line up with the contract", () => {
    const fact: title.TitleFact = { title: null, source: null };
    const source: title.TitleSource = { kind: "model", model: "m" };
    const kind: title.TitleSourceKind = source.kind;
    const config: title.TitleConfig = title.DEFAULT_TITLE_CONFIG;
    expect([fact.title, kind, config.max_words]).toEqual([null, "model", 6]);
  });
});
