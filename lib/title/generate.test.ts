import { describe, expect, it } from "vitest";
import { DEFAULT_TITLE_CONFIG } from "./config";
import { shouldGenerateTitle } from "./generate";
import { HIDDEN_CONTEXT_KEY } from "./messages";

const human = (content = "q") => ({ type: "human", content });
const ai = (content = "a") => ({ type: "ai", content });
const hidden = () => ({ type: "human", content: "reminder", additional_kwargs: { [HIDDEN_CONTEXT_KEY]: true } });
const system = () => ({ type: "system", content: "sys" });
const tool = () => ({ type: "tool", content: "t", tool_call_id: "1" });
class FakeMessage {
  constructor(
    public type: string,
    public content: string,
  ) {}
}
const lc = (cls: string) => ({ lc: 1, type: "constructor", id: ["langchain_core", "messages", cls], kwargs: { content: "x" } });

describe("shouldGenerateTitle", () => {
  const cases: Array<[string, unknown[] | null | undefined, boolean, boolean]> = [
    // name, messages, expected (full exchange), expected (allowPartialExchange)
    ["null messages", null, false, false],
    ["undefined messages", undefined, false, false],
    ["no messages", [], false, false],
    ["one user message", [human()], false, true],
    ["user + ai", [human(), ai()], true, true],
    ["system + user + ai", [system(), human(), ai()], true, true],
    ["user + tool call + tool + ai", [human(), ai(""), tool(), ai()], true, true],
    ["hidden reminder + user + ai", [hidden(), human(), ai()], true, true],
    ["user + hidden reminder + ai", [human(), hidden(), ai()], true, true],
    ["hidden reminder only", [hidden()], false, false],
    ["hidden reminder + ai", [hidden(), ai()], false, false],
    ["ai only", [ai()], false, false],
    // Untitled with more than one user message (several sent at once, or written before a run).
    ["two users + ai", [human(), ai(), human()], true, true],
    ["two users, partial", [human(), human()], false, true],
    ["{role} dicts", [{ role: "user", content: "q" }, { role: "assistant", content: "a" }], true, true],
    ["AIMessageChunk dict", [human(), { type: "AIMessageChunk", content: "a" }], true, true],
    ["class-like messages", [new FakeMessage("human", "q"), new FakeMessage("ai", "a")], true, true],
    ["lc-serialized messages", [lc("HumanMessage"), lc("AIMessageChunk")], true, true],
    ["junk entries are ignored", [null, 5, "x", human(), ai()], true, true],
  ];

  it.each(cases)("%s", (_, messages, full, partial) => {
    expect(shouldGenerateTitle({ title: null, messages })).toBe(full);
    expect(shouldGenerateTitle({ title: null, messages }, { allowPartialExchange: false })).toBe(full);
    expect(shouldGenerateTitle({ title: null, messages }, { allowPartialExchange: true })).toBe(partial);
  });

  it.each([null, undefined, "", "   "])("title %j counts as no title", (title) => {
    expect(shouldGenerateTitle({ title, messages: [human(), ai()] }, {})).toBe(true);
    expect(shouldGenerateTitle({ messages: [human(), ai()] }, {})).toBe(true);
  });

  it("an existing title stops generation", () => {
    expect(shouldGenerateTitle({ title: "Existing", messages: [human(), ai()] }, {})).toBe(false);
    expect(shouldGenerateTitle({ title: "Existing", messages: [human()] }, { allowPartialExchange: true })).toBe(false);
  });

  it("disabled config stops generation", () => {
    const config = { ...DEFAULT_TITLE_CONFIG, enabled: false };
    expect(shouldGenerateTitle({ title: null, messages: [human(), ai()] }, { config })).toBe(false);
    expect(shouldGenerateTitle({ title: null, messages: [human()] }, { config, allowPartialExchange: true })).toBe(false);
    expect(shouldGenerateTitle({ title: null, messages: [human(), ai()] }, { config: DEFAULT_TITLE_CONFIG })).toBe(true);
  });

  it("opts may be omitted", () => {
    expect(shouldGenerateTitle({ messages: [human(), ai()] })).toBe(true);
    expect(shouldGenerateTitle({})).toBe(false);
  });
});
