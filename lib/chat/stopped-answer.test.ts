import { describe, expect, it } from "vitest";
import { TITLE_WRITER_NODE } from "@/lib/agent/title-middleware";
import { isStoppedAnswer, OUTSIDE_WRITE_NODE, STOPPED_ANSWER_KEY, stoppedAnswerToKeep, streamedAnswerOf } from "./stopped-answer";

const human = { type: "human", id: "h1", content: "Explain tides" };

describe("the answer on screen when Stop is pressed", () => {
  it("is the last message when it is an assistant's with text, streamed (a chunk) or whole", () => {
    expect(streamedAnswerOf([human, { type: "ai", id: "a1", content: "Tides are" }])).toEqual({ id: "a1", text: "Tides are" });
    expect(streamedAnswerOf([human, { type: "AIMessageChunk", id: "a1", content: [{ type: "text", text: "Tides are" }] }])).toEqual({ id: "a1", text: "Tides are" });
    expect(streamedAnswerOf([human, { type: "ai", content: "No id" }])).toEqual({ id: null, text: "No id" });
  });

  it("is nothing when the last message is the question, or an answer with no text yet", () => {
    expect(streamedAnswerOf([])).toBeNull();
    expect(streamedAnswerOf([human])).toBeNull();
    expect(streamedAnswerOf([human, { type: "ai", id: "a1", content: "  " }])).toBeNull();
    expect(streamedAnswerOf([human, { type: "tool", id: "t1", content: "42" }])).toBeNull();
  });
});

describe("the stopped answer to write when the server kept nothing of it", () => {
  it("is the streamed text, with its id, marked stopped", () => {
    const keep = stoppedAnswerToKeep([human], { id: "a1", text: "Tides are caused" });
    expect(keep).toEqual({ type: "ai", id: "a1", content: "Tides are caused", response_metadata: { [STOPPED_ANSWER_KEY]: true } });
    expect(isStoppedAnswer(keep)).toBe(true);
    expect(stoppedAnswerToKeep([human], { id: null, text: "Tides" })).toEqual({ type: "ai", content: "Tides", response_metadata: { [STOPPED_ANSWER_KEY]: true } });
  });

  it("is nothing when the thread holds that message already (the answer had finished, or the server kept it)", () => {
    expect(stoppedAnswerToKeep([human, { type: "ai", id: "a1", content: "Tides are caused by the moon." }], { id: "a1", text: "Tides are caused" })).toBeNull();
    expect(stoppedAnswerToKeep([human, { type: "ai", id: "a9", content: "Same text" }], { id: null, text: "Same text" })).toBeNull();
  });

  it("is nothing when nothing was streamed", () => {
    expect(stoppedAnswerToKeep([human], null)).toBeNull();
    expect(stoppedAnswerToKeep([human], { id: "a1", text: " \n" })).toBeNull();
  });

  it("keeps an earlier answer of the same text apart from this one when ids differ", () => {
    expect(stoppedAnswerToKeep([human, { type: "ai", id: "a0", content: "Tides" }, human], { id: "a1", text: "Tides" })).not.toBeNull();
  });
});

it("names the node lib/agent attributes writes from outside a run to", () => {
  expect(OUTSIDE_WRITE_NODE).toBe(TITLE_WRITER_NODE);
});
