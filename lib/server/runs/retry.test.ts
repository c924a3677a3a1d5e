import { afterEach, describe, expect, it } from "vitest";
import { createHarness, human, ScriptedModel, type Harness } from "../test-harness";

let h: Harness;
afterEach(() => h?.close());

type Values = { messages: { type: string; content: string }[]; title: string | null };

describe("retrying a run that failed after its input was saved", () => {
  it("resumes from the thread's checkpoint with a null input: the user's message is not duplicated", async () => {
    h = createHarness({ model: new ScriptedModel(["__throw__", "Recovered answer."]) });
    const t = await h.client.threads.create();
    await expect(h.client.runs.wait(t.thread_id, "agent", { input: human("Why is the sky blue?") })).rejects.toThrow(/model exploded/);

    const before = await h.client.threads.getState<Values>(t.thread_id);
    expect(before.next.length).toBeGreaterThan(0); // the failed step is still pending
    expect(before.values.messages.map((m) => m.type)).toEqual(["human"]);

    const resumed = (await h.client.runs.wait(t.thread_id, "agent", { input: null })) as Values;
    expect(resumed.messages.map((m) => [m.type, m.content])).toEqual([
      ["human", "Why is the sky blue?"],
      ["ai", "Recovered answer."],
    ]);
    expect(resumed.title).toBe("Why is the sky blue?");
    expect(h.model.calls).toBe(2);
  });
});
