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
    [{ RUN_TIMEOUT_S: "0" }, /RUN_TIMEOUT_S.*1.*86400/],
    [{ MAX_CONCURRENT_RUNS: "many" }, /MAX_CONCURRENT_RUNS.*1.*1000/],
    [{ RUN_REPLAY_EVENTS: "10" }, /RUN_REPLAY_EVENTS.*100.*1000000/],
  ])("names the variable and its bounds: %o", (env, message) => {
    expect(validateServerEnv(env)).toMatch(message);
  });
});
