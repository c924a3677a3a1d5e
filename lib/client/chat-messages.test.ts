import { describe, expect, it } from "vitest";
import { visibleMessages } from "./chat-messages";

describe("visibleMessages", () => {
  it("keeps user and assistant text, drops hidden context, tools and system", () => {
    const lines = visibleMessages([
      { type: "system", content: "sys" },
      { id: "h1", type: "human", content: "rewritten", additional_kwargs: { original_user_text: "as typed" } },
      { type: "human", content: "reminder", additional_kwargs: { threadline_hidden: true } },
      { id: "a1", type: "ai", content: [{ type: "text", text: "Hello **there**" }] },
      { type: "tool", content: "tool output", tool_call_id: "x" },
    ]);
    expect(lines).toEqual([
      { key: "h1", role: "user", text: "as typed" },
      { key: "a1", role: "assistant", text: "Hello **there**" },
    ]);
  });

  it("tolerates empty input", () => {
    expect(visibleMessages(undefined)).toEqual([]);
  });
});
