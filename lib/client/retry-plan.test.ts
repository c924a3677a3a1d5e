import { describe, expect, it } from "vitest";
import { planRetry, UNREADABLE } from "./retry-plan";

const human = (content: string) => ({ type: "human", content });
const ai = (content: string) => ({ type: "ai", content });

describe("planRetry", () => {
  it("resumes when the failed step is pending after the user's saved message", () => {
    expect(planRetry({ next: ["model_request"], values: { messages: [human("hi")] } }, "hi")).toBe("resume");
  });
  it("resends when the message never reached the thread", () => {
    expect(planRetry({ next: [], values: { messages: [human("hi"), ai("hello")] } }, "again")).toBe("resend");
    expect(planRetry(null, "hi")).toBe("resend");
  });
  it("resends when something else is pending or the last message is not the one sent", () => {
    expect(planRetry({ next: ["model_request"], values: { messages: [human("older")] } }, "newer")).toBe("resend");
    expect(planRetry({ next: ["tools"], values: { messages: [human("hi"), ai("calling")] } }, "hi")).toBe("resend");
  });
  it("neither resends nor resumes when the thread's state could not be read", () => {
    expect(planRetry(UNREADABLE, "hi")).toBe("unknown");
  });
});
