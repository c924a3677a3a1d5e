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

  it("marks an answer the server kept after a Stop", () => {
    const lines = visibleMessages([
      { id: "a1", type: "ai", content: "Half an ans", response_metadata: { threadline_stopped: true } },
      { id: "a2", type: "ai", content: "Whole answer.", response_metadata: { finish_reason: "stop" } },
    ]);
    expect(lines).toEqual([
      { key: "a1", role: "assistant", text: "Half an ans", stopped: true },
      { key: "a2", role: "assistant", text: "Whole answer." },
    ]);
  });

  it("tolerates empty input", () => {
    expect(visibleMessages(undefined)).toEqual([]);
  });
});
