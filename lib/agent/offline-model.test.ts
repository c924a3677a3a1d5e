import { describe, expect, it } from "vitest";
import { HumanMessage } from "@langchain/core/messages";
import { attachedFileNames, createOfflineChatModel, offlineReply } from "./offline-model";
import { chatModelFromEnv, offlineDelayMs, usesOfflineModel } from "./models";
import { OfflineChatModel } from "./offline-model";

describe("offline model", () => {
  it("says plainly that it is offline, deterministically", () => {
    const a = offlineReply([new HumanMessage("hello there")]);
    expect(a).toMatch(/offline/i);
    expect(a).toContain("OPENAI_API_KEY");
    expect(offlineReply([new HumanMessage("hello there")])).toBe(a);
  });

  it("quotes the user's text as a bidi isolate without their bidi controls, so nothing typed can reverse the rest of the reply", () => {
    for (const typed of ["\u202Eoverride without an end", "\u2069\u202Ea stray PDI first", "\u2067an isolate left open \u202B"]) {
      const reply = offlineReply([new HumanMessage(typed)]);
      const quote = reply.slice(reply.indexOf("You said: "));
      const plain = typed.replace(/[\u202A-\u202E\u2066-\u2069]/g, "");
      expect(quote.startsWith(`You said: "\u2068${plain}\u2069".`)).toBe(true);
      // Our FSI and PDI are the reply's only bidi controls.
      expect(reply.match(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g)).toEqual(["\u2068", "\u2069"]);
    }
  });

  it("streams the reply token by token", async () => {
    const model = createOfflineChatModel({ delayMs: 0 });
    const chunks: string[] = [];
    for await (const c of await model.stream([new HumanMessage("hi")])) chunks.push(c.text);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join("")).toBe(offlineReply([new HumanMessage("hi")]));
  });

  it("stops streaming when aborted", async () => {
    const model = createOfflineChatModel({ delayMs: 20 });
    const controller = new AbortController();
    const chunks: string[] = [];
    await expect(
      (async () => {
        for await (const c of await model.stream([new HumanMessage("hi")], { signal: controller.signal })) {
          chunks.push(c.text);
          if (chunks.length === 2) controller.abort();
        }
      })(),
    ).rejects.toThrow();
    expect(chunks.length).toBeLessThan(5);
  });

  it("is chosen when no provider is configured, and the delay is validated", async () => {
    expect(usesOfflineModel({})).toBe(true);
    expect(usesOfflineModel({ OPENAI_API_KEY: "sk-x" })).toBe(false);
    expect(await chatModelFromEnv({ OFFLINE_MODEL_DELAY_MS: "3" })).toBeInstanceOf(OfflineChatModel);
    expect(offlineDelayMs({ OFFLINE_MODEL_DELAY_MS: "40" })).toBe(40);
    expect(() => offlineDelayMs({ OFFLINE_MODEL_DELAY_MS: "-1" })).toThrow(/OFFLINE_MODEL_DELAY_MS/);
    expect(() => offlineDelayMs({ OFFLINE_MODEL_DELAY_MS: "fast" })).toThrow(/between 0 and 10000/);
  });
});

describe("offline model and attachments", () => {
  const pdf = { type: "file", mimeType: "application/pdf", data: "JVBERi0xLjQ=", metadata: { filename: "report.pdf", size: 8 } };
  const png = { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=", metadata: { filename: "cat.png", size: 8 } };

  it("names every attached file, never their bytes, and quotes the text beside them", () => {
    const reply = offlineReply([new HumanMessage({ content: [{ type: "text", text: "What are these?" }, pdf, png] as never })]);
    expect(reply).toMatch(/^I can see you attached report\.pdf and cat\.png, but I'm Threadline's offline model/);
    expect(reply).toContain('You said: "\u2068What are these?\u2069"');
    expect(reply).not.toContain("JVBERi0");
    expect(reply).not.toContain("iVBOR");
  });

  it("with files only, names them and quotes nothing", () => {
    const reply = offlineReply([new HumanMessage({ content: [pdf] as never })]);
    expect(reply).toMatch(/^I can see you attached report\.pdf, but/);
    expect(reply).not.toContain("You said");
    expect(attachedFileNames(new HumanMessage({ content: [pdf, pdf, { ...png, metadata: {} }] as never }))).toEqual([
      "report.pdf",
      "report.pdf",
      "an image",
    ]);
  });

  it("answers about the latest user message only", () => {
    const reply = offlineReply([new HumanMessage({ content: [pdf] as never }), new HumanMessage("and now?")]);
    expect(reply).not.toContain("report.pdf");
  });
});

describe("offline model pacing", () => {
  it("takes the per-token delay on invoke too, not only when streamed", async () => {
    const model = createOfflineChatModel({ delayMs: 5 });
    const started = Date.now();
    const reply = await model.invoke([new HumanMessage("hi")]);
    expect(reply.text).toBe(offlineReply([new HumanMessage("hi")]));
    // ~35 tokens at 5 ms each: a floor, not a speed target.
    expect(Date.now() - started).toBeGreaterThanOrEqual(5 * 20);
  });
});
