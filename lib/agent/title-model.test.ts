import { describe, expect, it, vi } from "vitest";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { DEFAULT_TITLE_CONFIG } from "@/lib/title";
import { TITLE_CALL_TAGS, TITLE_RUN_NAME, createModelTitler, type TitleRequestRecord } from "./title-model";

describe("the title call", () => {
  it("is named title_agent, tagged middleware:title and langsmith:nostream, and audited once", async () => {
    const model = new FakeListChatModel({ responses: ["Lisbon Weekend"] });
    const invoke = vi.spyOn(model, "invoke");
    const records: TitleRequestRecord[] = [];
    const titler = createModelTitler({ model, modelId: "fake:list", config: DEFAULT_TITLE_CONFIG });
    const attempt = await titler.request({ purpose: "first", userText: "Plan a weekend in Lisbon", threadId: "t1", audit: (r) => void records.push(r) });
    expect(attempt).toEqual({ ok: true, title: "Lisbon Weekend", source: { kind: "model", model: "fake:list" } });
    const options = invoke.mock.calls[0][1] as { runName?: string; tags?: string[] };
    expect(TITLE_RUN_NAME).toBe("title_agent");
    expect(options.runName).toBe("title_agent");
    expect(options.tags).toEqual(expect.arrayContaining(["langsmith:nostream", "middleware:title"]));
    expect(TITLE_CALL_TAGS).toEqual(["langsmith:nostream", "middleware:title"]);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ thread_id: "t1", model: "fake:list", purpose: "first", outcome: "accepted", title: "Lisbon Weekend", reason: null });
  });

  it("never throws: a model error becomes one warning line and a failed attempt", async () => {
    const model = new FakeListChatModel({ responses: ["x"] });
    vi.spyOn(model, "invoke").mockRejectedValue(new Error("boom"));
    const warn = vi.fn();
    const titler = createModelTitler({ model, modelId: "fake:list", config: DEFAULT_TITLE_CONFIG, warn });
    const attempt = await titler.request({ purpose: "regenerate", userText: "Hello there" });
    expect(attempt.ok).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(/^automatic title generation failed: .*boom/);
  });
});
