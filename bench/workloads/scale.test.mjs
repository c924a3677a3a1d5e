import { describe, expect, it } from "vitest";
import { modelPace, question } from "./scale.mjs";

// The scripted model sees a request's messages as JSON, the way scripted-llm.mjs passes them.
const asRequest = (content) => JSON.stringify([{ role: "user", content }]);

describe("the bench's scripted model pace", () => {
  it("answers every thread-making question at once, at any N", () => {
    for (const i of [0, 1, 9_999, 99_999, 100_000, 100_499, 250_000, 999_999, 1_000_000]) {
      expect(modelPace(asRequest(question(i))), question(i)).toEqual({ firstTokenMs: 0, tokenMs: 0 });
    }
  });

  it("paces the background streams like a model writing a long reply", () => {
    expect(modelPace(asRequest("background stream 7 run 12"))).toEqual({ firstTokenMs: 100, tokenMs: 20, long: true });
  });

  it("answers the title timings' conversations after a fixed delay", () => {
    expect(modelPace(asRequest("Plan a weekend in Lisbon mi3xk2"))).toEqual({ firstTokenMs: 100, tokenMs: 5 });
  });
});
