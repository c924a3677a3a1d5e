import { describe, expect, it } from "vitest";
import { OFFLINE_MODEL_NAME, lastAnswerOffline } from "./offline-answer";

const human = (text: string) => ({ type: "human", content: text });
const answer = (model_name?: string) => ({ type: "ai", content: "…", response_metadata: model_name ? { model_name } : {} });

describe("lastAnswerOffline", () => {
  it("is false before any answer, and for a conversation answered by another model", () => {
    expect(lastAnswerOffline([])).toBe(false);
    expect(lastAnswerOffline([human("hi")])).toBe(false);
    expect(lastAnswerOffline([human("hi"), answer("gpt-4o-mini")])).toBe(false);
    expect(lastAnswerOffline([human("hi"), { type: "ai", content: "x" }])).toBe(false);
    expect(lastAnswerOffline([human("hi"), { type: "ai", content: "x", response_metadata: null }])).toBe(false);
  });

  it("follows the latest answer: a server that changed its model is believed", () => {
    expect(lastAnswerOffline([human("a"), answer(OFFLINE_MODEL_NAME)])).toBe(true);
    expect(lastAnswerOffline([human("a"), answer(OFFLINE_MODEL_NAME), human("b")])).toBe(true);
    expect(lastAnswerOffline([human("a"), answer(OFFLINE_MODEL_NAME), human("b"), answer("claude-haiku-4-5")])).toBe(false);
    expect(lastAnswerOffline([human("a"), answer("gpt-4o"), human("b"), answer(OFFLINE_MODEL_NAME)])).toBe(true);
  });

  it("while an answer streams (its name comes with its last token), the finished one before it tells", () => {
    const streaming = [human("a"), answer(OFFLINE_MODEL_NAME), human("b"), answer()];
    expect(lastAnswerOffline(streaming)).toBe(false);
    expect(lastAnswerOffline(streaming, true)).toBe(true);
    expect(lastAnswerOffline([human("a"), answer(OFFLINE_MODEL_NAME), human("b")], true)).toBe(true);
  });

  it("passes over an answer stopped before its end (no name), and an answer still streaming while a later step runs", () => {
    const stopped = { type: "ai", content: "Half an", response_metadata: { threadline_stopped: true } };
    expect(lastAnswerOffline([human("a"), answer(OFFLINE_MODEL_NAME), human("b"), stopped])).toBe(true);
    expect(lastAnswerOffline([human("a"), stopped])).toBe(false);
    // The answer is finished (named) while the run's title step still goes: it tells already.
    expect(lastAnswerOffline([human("a"), answer(OFFLINE_MODEL_NAME)], true)).toBe(true);
    // A finished answer without a name is a real model's (a provider that sets none).
    expect(lastAnswerOffline([human("a"), answer(OFFLINE_MODEL_NAME), human("b"), answer()])).toBe(false);
  });
});
