import { describe, expect, it } from "vitest";
import { validateServerEnv } from "./env-check";

describe("start-time settings check", () => {
  it("accepts an empty environment (all defaults)", () => {
    expect(validateServerEnv({})).toBeNull();
  });
  it.each([
    [{ TITLE_MAX_WORDS: "0" }, /TITLE_MAX_WORDS.*1.*20/],
    [{ TITLE_MAX_CHARS: "500" }, /TITLE_MAX_CHARS.*10.*200/],
    [{ TITLE_ENABLED: "maybe" }, /TITLE_ENABLED/],
    [{ OFFLINE_MODEL_DELAY_MS: "slow" }, /OFFLINE_MODEL_DELAY_MS/],
    [{ CHAT_MODEL: "mistral:large" }, /CHAT_MODEL names an unknown provider "mistral".*openai, anthropic/],
    [{ TITLE_MODEL: "cohere:command" }, /TITLE_MODEL names an unknown provider "cohere"/],
    [{ CHAT_MODEL: "anthropic:claude-haiku-4-5" }, /CHAT_MODEL=anthropic:claude-haiku-4-5 needs ANTHROPIC_API_KEY/],
    [{ TITLE_MODEL: "openai:gpt-4o-mini" }, /TITLE_MODEL=openai:gpt-4o-mini needs OPENAI_API_KEY/],
    [{ CHAT_MODEL: "gpt-4o-mini" }, /CHAT_MODEL=openai:gpt-4o-mini needs OPENAI_API_KEY/],
    [{ TITLE_MODEL: "openai:" }, /TITLE_MODEL must be provider:model/],
    [{ TITLE_MODEL: "anthropic:claude haiku", ANTHROPIC_API_KEY: "k" }, /TITLE_MODEL must be provider:model/],
    [{ RUN_TIMEOUT_S: "0" }, /RUN_TIMEOUT_S.*1.*86400/],
    [{ MAX_CONCURRENT_RUNS: "many" }, /MAX_CONCURRENT_RUNS.*1.*1000/],
    [{ RUN_REPLAY_EVENTS: "10" }, /RUN_REPLAY_EVENTS.*100.*1000000/],
  ])("names the variable and its bounds: %o", (env, message) => {
    expect(validateServerEnv(env)).toMatch(message);
  });
});
