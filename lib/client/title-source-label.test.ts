import { describe, expect, it } from "vitest";
import { parseTitleSource } from "@/lib/title";
import { describeTitleSource } from "./title-source-label";

describe("describeTitleSource", () => {
  it("names the model that titled the conversation", () => {
    expect(describeTitleSource({ kind: "model", model: "openai:gpt-4o-mini" })).toBe("Named by AI (openai:gpt-4o-mini)");
    expect(describeTitleSource({ kind: "model", model: "  anthropic:claude-haiku " })).toBe("Named by AI (anthropic:claude-haiku)");
  });

  it("says 'Named by AI' when the model is unknown or blank", () => {
    expect(describeTitleSource({ kind: "model" })).toBe("Named by AI");
    expect(describeTitleSource({ kind: "model", model: "   " })).toBe("Named by AI");
  });

  it("describes the fallback, a rename and a missing source", () => {
    expect(describeTitleSource({ kind: "fallback" })).toBe("From your first message");
    expect(describeTitleSource({ kind: "user" })).toBe("Named by you");
    expect(describeTitleSource(null)).toBe("Not named yet");
    expect(describeTitleSource(undefined)).toBe("Not named yet");
  });

  it("keeps the model of a source read from the API's JSON", () => {
    expect(describeTitleSource(parseTitleSource('{"kind":"model","model":"openai:gpt-4o-mini"}'))).toBe("Named by AI (openai:gpt-4o-mini)");
  });
});
