import { describe, expect, it } from "vitest";
import { apiErrorCode, apiErrorMessage, apiErrorStatus } from "./api-client";

class HTTPError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`HTTP ${status}: ${body}`);
  }
}

describe("API error helpers", () => {
  it("reads the server's detail and its code", () => {
    const err = new HTTPError(422, JSON.stringify({ detail: "title-invalid: Title must not be empty" }));
    expect(apiErrorStatus(err)).toBe(422);
    expect(apiErrorCode(err)).toBe("title-invalid");
    expect(apiErrorMessage(err)).toBe("Title must not be empty");
  });

  it("falls back to the text", () => {
    expect(apiErrorMessage(new HTTPError(500, "boom"))).toBe("boom");
    expect(apiErrorMessage(new Error("Failed to fetch"))).toBe("Failed to fetch");
    expect(apiErrorMessage(null)).toBe("Something went wrong");
    expect(apiErrorCode(new HTTPError(404, JSON.stringify({ detail: "Thread x not found" })))).toBeNull();
    expect(apiErrorStatus(new Error("x"))).toBeUndefined();
  });
});
