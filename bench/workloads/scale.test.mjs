import { describe, expect, it } from "vitest";
import { modelPace, pagesSideBySide, question } from "./scale.mjs";

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

describe("the first page beside the control", () => {
  const fake = (name, calls) => ({ kind: "threadline", name, client: { threads: { search: async () => (calls.push(name), []) } } });
  it("warms the control as asked, then takes turns, alternating which goes first, and times only the samples", async () => {
    const calls = [];
    const { here, there } = await pagesSideBySide(fake("target", calls), fake("control", calls), 4, { warmup: 2, controlWarmup: 3 });
    expect(calls).toEqual([
      ...Array(3).fill("control"),
      "target", "control", "control", "target", // the two untimed pairs
      "target", "control", "control", "target", "target", "control", "control", "target",
    ]);
    expect(here).toHaveLength(4);
    expect(there).toHaveLength(4);
    expect([...here, ...there].every((ms) => ms >= 0)).toBe(true);
  });
});
