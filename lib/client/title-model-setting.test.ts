import { afterEach, describe, expect, it, vi } from "vitest";
import { regenerateLabel, titleModelSet } from "./title-model-setting";

describe("the title model setting", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it("on the server, is TITLE_MODEL (blank counts as unset)", () => {
    vi.stubEnv("TITLE_MODEL", "openai:gpt-4.1-mini");
    expect(titleModelSet()).toBe(true);
    vi.stubEnv("TITLE_MODEL", "  ");
    expect(titleModelSet()).toBe(false);
  });

  it("in the browser, is the attribute the layout rendered, not the browser's environment", () => {
    vi.stubEnv("TITLE_MODEL", "openai:gpt-4.1-mini");
    vi.stubGlobal("document", { documentElement: { dataset: {} } });
    expect(titleModelSet()).toBe(false);
    vi.stubGlobal("document", { documentElement: { dataset: { titleModel: "on" } } });
    expect(titleModelSet()).toBe(true);
  });

  it("names what will do the naming", () => {
    expect(regenerateLabel(true)).toBe("Let AI name this");
    expect(regenerateLabel(false)).toBe("Name it from the first message");
    expect(regenerateLabel(null)).toBe("Name it again");
  });
});
