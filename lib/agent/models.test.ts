import { describe, expect, it } from "vitest";
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOpenAI } from "@langchain/openai";
import { chatModelFromEnv, chatModelSpec, parseModelSpec, titleModelFromEnv, titleModelSpec } from "./models";
import { OfflineChatModel } from "./offline-model";

// initChatModel wraps the provider class; the concrete client is what a request goes through.
async function concrete(model: unknown) {
  return (model as { _getModelInstance?: () => Promise<unknown> })._getModelInstance?.() ?? model;
}

describe("models from env (provider:model)", () => {
  it("parses provider:model, and a bare name means an OpenAI-compatible model", () => {
    expect(parseModelSpec("anthropic:claude-haiku-4-5", "X")).toEqual({ provider: "anthropic", model: "claude-haiku-4-5", id: "anthropic:claude-haiku-4-5" });
    expect(parseModelSpec(" gpt-4o-mini ", "X")).toEqual({ provider: "openai", model: "gpt-4o-mini", id: "openai:gpt-4o-mini" });
    // Ollama-style names keep their own colon.
    expect(parseModelSpec("openai:qwen3:8b", "X")).toMatchObject({ provider: "openai", model: "qwen3:8b" });
  });

  it("keeps today's settings: no provider → offline; an OpenAI key alone → openai:gpt-4o-mini", async () => {
    expect(chatModelSpec({})).toBeNull();
    expect(await chatModelFromEnv({})).toBeInstanceOf(OfflineChatModel);
    expect(chatModelSpec({ OPENAI_API_KEY: "sk" })?.id).toBe("openai:gpt-4o-mini");
    expect(chatModelSpec({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1", CHAT_MODEL: "llama3" })?.id).toBe("openai:llama3");
    expect(titleModelSpec({})).toBeNull();
  });

  it("builds the real provider clients through initChatModel", async () => {
    const openai = await concrete(await chatModelFromEnv({ OPENAI_API_KEY: "sk", CHAT_MODEL: "openai:gpt-4o" }));
    expect(openai).toBeInstanceOf(ChatOpenAI);
    const anthropic = await concrete(await chatModelFromEnv({ ANTHROPIC_API_KEY: "k", CHAT_MODEL: "anthropic:claude-haiku-4-5" }));
    expect(anthropic).toBeInstanceOf(ChatAnthropic);
  });

  it("gives the title model a token cap, a timeout, no retries and no thinking", async () => {
    const limits = { maxOutputTokens: 64, timeoutMs: 1234 };
    const a = await titleModelFromEnv({ ANTHROPIC_API_KEY: "k", TITLE_MODEL: "anthropic:claude-haiku-4-5" }, limits);
    const anthropic = (await concrete(a!.model)) as ChatAnthropic;
    expect(a!.spec.id).toBe("anthropic:claude-haiku-4-5");
    expect(anthropic.maxTokens).toBe(64);
    expect(anthropic.thinking).toEqual({ type: "disabled" });
    const o = await titleModelFromEnv({ OPENAI_API_KEY: "sk", TITLE_MODEL: "openai:gpt-5-mini" }, limits);
    const openai = (await concrete(o!.model)) as ChatOpenAI;
    expect(openai.maxTokens).toBe(64);
    expect(openai.timeout).toBe(1234);
    expect(openai.reasoning).toEqual({ effort: "minimal" });
    expect((openai as unknown as { caller: { maxRetries: number } }).caller.maxRetries).toBe(0);
  });
});
