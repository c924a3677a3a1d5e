import { describe, expect, it } from "vitest";
import {
  DEFAULT_TITLE_CONFIG,
  TitleConfigError,
  TitleConfigSchema,
  loadTitleConfig,
} from "./config";

function errorOf(env: Record<string, string | undefined>): TitleConfigError {
  try {
    loadTitleConfig(env);
  } catch (e) {
    if (e instanceof TitleConfigError) return e;
    throw e;
  }
  throw new Error("expected loadTitleConfig to throw");
}

describe("defaults", () => {
  it("match the spec", () => {
    expect(DEFAULT_TITLE_CONFIG).toEqual({
      enabled: true,
      max_words: 6,
      max_chars: 60,
      model_name: null,
      prompt_template: null,
      instant: true,
      timeout_ms: 5000,
      max_output_tokens: 64,
      cadence: "first-prompt",
      fallback_cut: "word",
    });
  });

  it("are the schema's own defaults", () => {
    expect(TitleConfigSchema.parse({})).toEqual(DEFAULT_TITLE_CONFIG);
  });

  it("empty env gives the defaults", () => {
    expect(loadTitleConfig({})).toEqual(DEFAULT_TITLE_CONFIG);
  });

  it("empty strings count as unset", () => {
    const env = {
      TITLE_ENABLED: "",
      TITLE_MAX_WORDS: "",
      TITLE_MAX_CHARS: "",
      TITLE_MODEL: "",
      TITLE_PROMPT_TEMPLATE: "",
      TITLE_INSTANT: "",
      TITLE_TIMEOUT_MS: "",
      TITLE_MAX_TOKENS: " ",
      TITLE_CADENCE: "",
      TITLE_FALLBACK_CUT: "\t",
    };
    expect(loadTitleConfig(env)).toEqual(DEFAULT_TITLE_CONFIG);
    expect(loadTitleConfig({ TITLE_MODEL: "   ", TITLE_MAX_WORDS: " " })).toEqual(DEFAULT_TITLE_CONFIG);
  });

  it("is frozen so callers cannot mutate the shared default", () => {
    expect(Object.isFrozen(DEFAULT_TITLE_CONFIG)).toBe(true);
  });
});

describe("booleans", () => {
  const truthy = ["true", "TRUE", "True", "1", "yes", "YES", "Yes", " yes "];
  const falsy = ["false", "FALSE", "False", "0", "no", "NO", "No", " no "];
  for (const name of ["TITLE_ENABLED", "TITLE_INSTANT"] as const) {
    const key = name === "TITLE_ENABLED" ? "enabled" : "instant";
    it.each(truthy)(`${name}=%j → true`, (v) => {
      expect(loadTitleConfig({ [name]: v })[key]).toBe(true);
    });
    it.each(falsy)(`${name}=%j → false`, (v) => {
      expect(loadTitleConfig({ [name]: v })[key]).toBe(false);
    });
    it.each(["on", "off", "y", "n", "2", "-1", "truthy", "t"])(`${name}=%j throws`, (v) => {
      expect(errorOf({ [name]: v }).message).toBe(
        `${name} must be one of true/false/1/0/yes/no (got ${JSON.stringify(v)})`,
      );
    });
  }
});

describe("integer bounds", () => {
  const cases = [
    { name: "TITLE_MAX_WORDS", key: "max_words", min: 1, max: 20 },
    { name: "TITLE_MAX_CHARS", key: "max_chars", min: 10, max: 200 },
    { name: "TITLE_TIMEOUT_MS", key: "timeout_ms", min: 100, max: 60000 },
    { name: "TITLE_MAX_TOKENS", key: "max_output_tokens", min: 8, max: 1024 },
  ] as const;
  for (const { name, key, min, max } of cases) {
    it(`${name} accepts min ${min}, max ${max} and values inside`, () => {
      expect(loadTitleConfig({ [name]: String(min) })[key]).toBe(min);
      expect(loadTitleConfig({ [name]: String(max) })[key]).toBe(max);
      expect(loadTitleConfig({ [name]: String(min + 1) })[key]).toBe(min + 1);
      expect(loadTitleConfig({ [name]: ` ${max - 1} ` })[key]).toBe(max - 1);
      expect(loadTitleConfig({ [name]: `+${min}` })[key]).toBe(min);
    });
    const bad = [String(min - 1), String(max + 1), "-5", "2.5", `${min}.0`, "abc", "1e1", "0x10", "6abc", "NaN", "Infinity", "99999999999999999999"];
    it.each(bad)(`${name}=%j throws naming the variable and its bounds`, (v) => {
      expect(errorOf({ [name]: v }).message).toBe(
        `${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(v)})`,
      );
    });
  }

  it("reproduces the spec's example message", () => {
    expect(errorOf({ TITLE_MAX_WORDS: "0" }).message).toBe('TITLE_MAX_WORDS must be an integer between 1 and 20 (got "0")');
  });

  it("the error is a TitleConfigError and an Error", () => {
    const e = errorOf({ TITLE_MAX_CHARS: "9" });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("TitleConfigError");
  });
});

describe("choices", () => {
  const cases = [
    { name: "TITLE_CADENCE", key: "cadence", choices: ["first-prompt", "all-prompts"] },
    { name: "TITLE_FALLBACK_CUT", key: "fallback_cut", choices: ["word", "grapheme"] },
  ] as const;
  for (const { name, key, choices } of cases) {
    it.each(choices)(`${name}=%j is accepted, also padded or upper-case`, (v) => {
      expect(loadTitleConfig({ [name]: v })[key]).toBe(v);
      expect(loadTitleConfig({ [name]: ` ${v.toUpperCase()} ` })[key]).toBe(v);
    });
    it.each(["first", "all", "words", "char", "first_prompt", "0"])(`${name}=%j throws naming the variable and the choices`, (v) => {
      expect(errorOf({ [name]: v }).message).toBe(`${name} must be one of ${choices.join("/")} (got ${JSON.stringify(v)})`);
    });
  }
});

describe("model and prompt", () => {
  it("no TITLE_PROMPT_TEMPLATE means the built-in prompt (null)", () => {
    expect(loadTitleConfig({ TITLE_MODEL: "m" }).prompt_template).toBeNull();
  });

  it("TITLE_MODEL sets model_name (trimmed)", () => {
    expect(loadTitleConfig({ TITLE_MODEL: "gpt-4o-mini" }).model_name).toBe("gpt-4o-mini");
    expect(loadTitleConfig({ TITLE_MODEL: " openai:gpt-4o-mini \n" }).model_name).toBe("openai:gpt-4o-mini");
  });

  it("TITLE_PROMPT_TEMPLATE is used verbatim", () => {
    const t = "Title for {user_msg} in {max_words} words";
    expect(loadTitleConfig({ TITLE_PROMPT_TEMPLATE: t }).prompt_template).toBe(t);
  });

  it("a template missing {user_msg} is an error", () => {
    expect(errorOf({ TITLE_PROMPT_TEMPLATE: "Title for {assistant_msg}" }).message).toBe(
      "TITLE_PROMPT_TEMPLATE must contain the {user_msg} placeholder",
    );
  });

  it("loads every variable together", () => {
    expect(
      loadTitleConfig({
        TITLE_ENABLED: "no",
        TITLE_MAX_WORDS: "8",
        TITLE_MAX_CHARS: "100",
        TITLE_MODEL: "m",
        TITLE_PROMPT_TEMPLATE: "{user_msg}",
        TITLE_INSTANT: "0",
        TITLE_TIMEOUT_MS: "2500",
        TITLE_MAX_TOKENS: "32",
        TITLE_CADENCE: "all-prompts",
        TITLE_FALLBACK_CUT: "grapheme",
        UNRELATED: "x",
      }),
    ).toEqual({
      enabled: false,
      max_words: 8,
      max_chars: 100,
      model_name: "m",
      prompt_template: "{user_msg}",
      instant: false,
      timeout_ms: 2500,
      max_output_tokens: 32,
      cadence: "all-prompts",
      fallback_cut: "grapheme",
    });
  });
});

describe("TitleConfigSchema", () => {
  it("fills defaults", () => {
    expect(TitleConfigSchema.parse({})).toEqual(DEFAULT_TITLE_CONFIG);
  });

  it.each([
    { max_words: 0 },
    { max_words: 21 },
    { max_words: 2.5 },
    { max_chars: 9 },
    { max_chars: 201 },
    { model_name: "" },
    { prompt_template: "no placeholder" },
    { enabled: "yes" },
    { timeout_ms: 99 },
    { timeout_ms: 60001 },
    { max_output_tokens: 7 },
    { max_output_tokens: 1025 },
    { cadence: "sometimes" },
    { fallback_cut: "char" },
  ])("rejects %j", (v) => {
    expect(TitleConfigSchema.safeParse(v).success).toBe(false);
  });

  it("accepts bounds", () => {
    expect(TitleConfigSchema.parse({ max_words: 1, max_chars: 200, model_name: "x" })).toMatchObject({
      max_words: 1,
      max_chars: 200,
      model_name: "x",
    });
  });
});
