import { describe, expect, it } from "vitest";
import { errorTextForPeople } from "./error-text";

const http = (status: number, body: string) => Object.assign(new Error(`HTTP ${status}: ${body}`), { status });

describe("errorTextForPeople", () => {
  it("never passes the server's text (thread ids, API options) through", () => {
    const raw = http(409, '{"detail":"Thread 3f2c is busy with run 99; use multitask_strategy \\"enqueue\\""}');
    const text = errorTextForPeople(raw);
    expect(text).toBe("The conversation is busy with another answer. Try again when it has finished.");
    expect(text).not.toMatch(/3f2c|multitask|run 99/);
  });

  it("speaks of the kind of failure", () => {
    expect(errorTextForPeople(http(404, "{}"))).toMatch(/no longer exists/);
    expect(errorTextForPeople(http(503, "upstream exploded"))).toMatch(/server ran into a problem/);
    expect(errorTextForPeople(new TypeError("Failed to fetch"))).toMatch(/Couldn't reach the server/);
    expect(errorTextForPeople(Object.assign(new Error("model exploded: stack…"), { name: "Error" }))).toBe("The model couldn't finish the answer.");
  });
});
