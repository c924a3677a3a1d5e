import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOpenAI } from "@langchain/openai";
import { createOfflineChatModel } from "./offline-model";

/** Reads OPENAI_API_KEY, OPENAI_BASE_URL, CHAT_MODEL and OFFLINE_MODEL_DELAY_MS. */
export type ChatModelEnv = Readonly<Record<string, string | undefined>>;

export function offlineDelayMs(env: ChatModelEnv): number {
  const raw = env.OFFLINE_MODEL_DELAY_MS?.trim();
  if (!raw) return 15;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 10_000) {
    throw new Error(`OFFLINE_MODEL_DELAY_MS must be an integer between 0 and 10000 (got "${raw}")`);
  }
  return n;
}

/** True when no provider is configured and the built-in offline model answers. */
export function usesOfflineModel(env: ChatModelEnv): boolean {
  return !env.OPENAI_API_KEY?.trim() && !env.OPENAI_BASE_URL?.trim();
}

/** Any OpenAI-compatible endpoint from env; otherwise the offline model, so the app runs with no key. */
export function chatModelFromEnv(env: ChatModelEnv): BaseChatModel {
  if (usesOfflineModel(env)) return createOfflineChatModel({ delayMs: offlineDelayMs(env) });
  return new ChatOpenAI({
    model: env.CHAT_MODEL?.trim() || "gpt-4o-mini",
    apiKey: env.OPENAI_API_KEY?.trim() || "not-needed",
    configuration: env.OPENAI_BASE_URL?.trim() ? { baseURL: env.OPENAI_BASE_URL.trim() } : undefined,
    // `streaming` is left unset on purpose. `true` makes every non-streamed call estimate tokens
    // with a tokenizer fetched from the internet (it hangs offline, e.g. beside a local server);
    // `false` disables streaming altogether. Unset, the model streams whenever the run streams
    // messages (LangGraph's handler asks for it) and otherwise makes one plain request.
  });
}
