import { describe, expect, it } from "vitest";
import { actionErrorText } from "./action-error";

class HTTPError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`HTTP ${status}: ${body}`);
  }
}

const THREAD_ID = "3f1c2d9e-8b7a-4c1d-9e2f-0a1b2c3d4e5f";

describe("actionErrorText", () => {
  it("speaks to people: no thread id, no status code, no raw API text", () => {
    const cases = [
      new HTTPError(404, JSON.stringify({ detail: `Thread ${THREAD_ID} not found` })),
      new HTTPError(409, JSON.stringify({ detail: `thread-busy: Thread ${THREAD_ID} has a run in progress` })),
      new HTTPError(500, `<html>Internal Server Error ${THREAD_ID}</html>`),
      new HTTPError(422, JSON.stringify({ detail: `no-user-message: Thread ${THREAD_ID} has no user message` })),
      new TypeError("Failed to fetch"),
    ];
    for (const err of cases) {
      for (const action of ["rename", "regenerate", "star", "unstar", "delete"] as const) {
        const text = actionErrorText(action, err);
        expect(text).not.toContain(THREAD_ID);
        expect(text).not.toMatch(/HTTP|\d{3}|detail|fetch|thread-busy|[{}<>]/);
        expect(text).toMatch(/^Couldn't \w+ the conversation\. [A-Z].*\.$/);
      }
    }
  });

  it("says why when the reason is known", () => {
    expect(actionErrorText("rename", new HTTPError(404, "{}"))).toBe(
      "Couldn't rename the conversation. It no longer exists: it may have been deleted in another tab.",
    );
    expect(actionErrorText("regenerate", new HTTPError(409, "{}"))).toContain("still answering");
    expect(actionErrorText("delete", new TypeError("Failed to fetch"))).toContain("connection");
    expect(actionErrorText("star", new HTTPError(503, "{}"))).toContain("on our side");
    // Naming it again: the title model failed (nothing changed), or a rename came first (it stays).
    expect(actionErrorText("regenerate", new HTTPError(502, JSON.stringify({ detail: "title-model-failed: the title model gave no usable title (HTTP 500); the title is unchanged" })))).toBe(
      "Couldn't name the conversation. The AI gave no usable title, so the title is unchanged. Try again in a moment.",
    );
    expect(actionErrorText("regenerate", new HTTPError(409, JSON.stringify({ detail: "title-changed: the title changed while a new one was being made; it was kept" })))).toBe(
      "Couldn't name the conversation. Its title was changed meanwhile, and that title stays.",
    );
    expect(actionErrorText("regenerate", new HTTPError(409, JSON.stringify({ detail: "thread-changed: the conversation moved on" })))).toBe(
      "Couldn't name the conversation. The conversation moved on meanwhile. Try again to name it as it is now.",
    );
  });
});
