import { describe, expect, it } from "vitest";
import {
  HIDDEN_CONTEXT_KEY,
  ORIGINAL_USER_TEXT_KEY,
  firstUserText,
  isRealUserMessage,
  messageContent,
  messageRole,
  userMessageText,
} from "./messages";

// Shapes of @langchain/core 1.x messages, reproduced without importing LangChain (eslint forbids it here).
class FakeBaseMessage {
  additional_kwargs: Record<string, unknown>;
  constructor(
    public readonly type: string,
    public content: unknown,
    kwargs: Record<string, unknown> = {},
  ) {
    this.additional_kwargs = kwargs;
  }
  getType() {
    return this.type;
  }
  _getType() {
    return this.type;
  }
}
class FakeChatMessage extends FakeBaseMessage {
  constructor(
    public role: string,
    content: unknown,
  ) {
    super("generic", content);
  }
}
// Older LangChain: no `type` field, only the method.
class LegacyMessage {
  constructor(
    private readonly t: string,
    public content: unknown,
  ) {}
  _getType() {
    return this.t;
  }
}
const lc = (cls: string, kwargs: Record<string, unknown>) => ({
  lc: 1,
  type: "constructor",
  id: ["langchain_core", "messages", cls],
  kwargs,
});

describe("messageRole", () => {
  it.each([
    [{ type: "human", content: "x" }, "user"],
    [{ type: "user", content: "x" }, "user"],
    [{ role: "user", content: "x" }, "user"],
    [{ type: "HumanMessage" }, "user"],
    [{ type: "HumanMessageChunk" }, "user"],
    [{ type: "ai" }, "assistant"],
    [{ type: "AIMessageChunk" }, "assistant"],
    [{ type: "AIMessage" }, "assistant"],
    [{ type: "assistant" }, "assistant"],
    [{ role: "assistant" }, "assistant"],
    [{ type: "system" }, "system"],
    [{ role: "system" }, "system"],
    [{ role: "developer" }, "system"],
    [{ type: "tool" }, "tool"],
    [{ type: "ToolMessage" }, "tool"],
    [{ role: "tool" }, "tool"],
    [{ type: "function" }, "tool"],
    [{ type: "remove" }, "other"],
    [{ type: "generic", role: "user" }, "user"],
    [{ type: "generic", role: "wizard" }, "other"],
    [{ type: "generic" }, "other"],
    [{ content: "no type" }, "other"],
    [{ type: 3 }, "other"],
    [null, "other"],
    [undefined, "other"],
    ["human", "other"],
    [42, "other"],
  ] as const)("%j → %s", (m, role) => {
    expect(messageRole(m)).toBe(role);
  });

  it("reads class-like LangChain messages", () => {
    expect(messageRole(new FakeBaseMessage("human", "x"))).toBe("user");
    expect(messageRole(new FakeBaseMessage("ai", "x"))).toBe("assistant");
    expect(messageRole(new FakeBaseMessage("system", "x"))).toBe("system");
    expect(messageRole(new FakeBaseMessage("tool", "x"))).toBe("tool");
    expect(messageRole(new FakeChatMessage("user", "x"))).toBe("user");
    expect(messageRole(new FakeChatMessage("assistant", "x"))).toBe("assistant");
  });

  it("falls back to getType()/_getType() when there is no type field", () => {
    expect(messageRole(new LegacyMessage("human", "x"))).toBe("user");
    expect(messageRole(new LegacyMessage("ai", "x"))).toBe("assistant");
    expect(messageRole({ getType: () => "human" })).toBe("user");
    expect(messageRole({ getType: () => 5, _getType: () => "ai" })).toBe("assistant");
  });

  it("survives a throwing getType", () => {
    expect(
      messageRole({
        getType() {
          throw new Error("boom");
        },
        role: "user",
      }),
    ).toBe("user");
  });

  it.each([
    ["HumanMessage", "user"],
    ["HumanMessageChunk", "user"],
    ["AIMessage", "assistant"],
    ["AIMessageChunk", "assistant"],
    ["SystemMessage", "system"],
    ["ToolMessage", "tool"],
    ["FunctionMessage", "tool"],
    ["RemoveMessage", "other"],
  ] as const)("lc-serialized %s → %s", (cls, role) => {
    expect(messageRole(lc(cls, { content: "x" }))).toBe(role);
  });

  it("lc-serialized ChatMessage uses kwargs.role", () => {
    expect(messageRole(lc("ChatMessage", { content: "x", role: "user" }))).toBe("user");
    expect(messageRole(lc("ChatMessage", { content: "x", role: "assistant" }))).toBe("assistant");
  });

  it("a non-lc object with type 'constructor' is not a message", () => {
    expect(messageRole({ type: "constructor", id: ["HumanMessage"] })).toBe("other");
  });
});

describe("isRealUserMessage", () => {
  it("accepts user messages in every shape", () => {
    expect(isRealUserMessage({ type: "human", content: "x" })).toBe(true);
    expect(isRealUserMessage({ role: "user", content: "x" })).toBe(true);
    expect(isRealUserMessage(new FakeBaseMessage("human", "x"))).toBe(true);
    expect(isRealUserMessage(lc("HumanMessage", { content: "x" }))).toBe(true);
  });

  it("image-only user messages are still real user messages", () => {
    expect(isRealUserMessage({ type: "human", content: [{ type: "image_url", image_url: { url: "u" } }] })).toBe(true);
  });

  it("rejects hidden context reminders in every shape", () => {
    const hidden = { [HIDDEN_CONTEXT_KEY]: true };
    expect(isRealUserMessage({ type: "human", content: "r", additional_kwargs: hidden })).toBe(false);
    expect(isRealUserMessage(new FakeBaseMessage("human", "r", hidden))).toBe(false);
    expect(isRealUserMessage(lc("HumanMessage", { content: "r", additional_kwargs: hidden }))).toBe(false);
  });

  it("only the boolean true hides a message", () => {
    expect(isRealUserMessage({ type: "human", content: "x", additional_kwargs: { [HIDDEN_CONTEXT_KEY]: "true" } })).toBe(true);
    expect(isRealUserMessage({ type: "human", content: "x", additional_kwargs: { [HIDDEN_CONTEXT_KEY]: false } })).toBe(true);
    expect(isRealUserMessage({ type: "human", content: "x", additional_kwargs: null })).toBe(true);
  });

  it("rejects non-user messages", () => {
    expect(isRealUserMessage({ type: "ai", content: "x" })).toBe(false);
    expect(isRealUserMessage({ type: "system", content: "x" })).toBe(false);
    expect(isRealUserMessage(null)).toBe(false);
  });
});

describe("userMessageText", () => {
  it("uses the content when there is no original text", () => {
    expect(userMessageText({ type: "human", content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] })).toBe("a\nb");
    expect(userMessageText(new FakeBaseMessage("human", "hello"))).toBe("hello");
    expect(userMessageText(lc("HumanMessage", { content: "from lc" }))).toBe("from lc");
  });

  it("prefers additional_kwargs[ORIGINAL_USER_TEXT_KEY] when it is a string", () => {
    const kw = { [ORIGINAL_USER_TEXT_KEY]: "what the user typed" };
    expect(ORIGINAL_USER_TEXT_KEY).toBe("original_user_text");
    expect(userMessageText({ type: "human", content: "rewritten + uploads", additional_kwargs: kw })).toBe("what the user typed");
    expect(userMessageText(new FakeBaseMessage("human", "rewritten", kw))).toBe("what the user typed");
    expect(userMessageText(lc("HumanMessage", { content: "rewritten", additional_kwargs: kw }))).toBe("what the user typed");
  });

  it("ignores a non-string original text", () => {
    expect(userMessageText({ type: "human", content: "c", additional_kwargs: { [ORIGINAL_USER_TEXT_KEY]: 7 } })).toBe("c");
  });

  it("image-only content → empty string", () => {
    expect(userMessageText({ role: "user", content: [{ type: "image_url", image_url: { url: "u" } }] })).toBe("");
  });

  it("non-objects → empty string", () => {
    expect(userMessageText(null)).toBe("");
    expect(messageContent("x")).toBeUndefined();
  });
});

describe("firstUserText", () => {
  it("null/undefined/empty → null", () => {
    expect(firstUserText(null)).toBeNull();
    expect(firstUserText(undefined)).toBeNull();
    expect(firstUserText([])).toBeNull();
    expect(firstUserText([{ type: "ai", content: "hi" }])).toBeNull();
  });

  it("skips system prompts, hidden reminders and AI messages", () => {
    expect(
      firstUserText([
        { type: "system", content: "sys" },
        { type: "human", content: "reminder", additional_kwargs: { [HIDDEN_CONTEXT_KEY]: true } },
        { type: "ai", content: "hello" },
        { role: "user", content: "real question" },
        { role: "user", content: "second" },
      ]),
    ).toBe("real question");
  });

  it("returns '' for a real but image-only first message", () => {
    expect(firstUserText([{ type: "human", content: [{ type: "image_url", image_url: { url: "u" } }] }])).toBe("");
  });
});
