import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { initChatModel } from "langchain";
import type { TitleConfig } from "@/lib/title";
import { createOfflineChatModel } from "./offline-model";
import { createModelTitler, type ModelTitler } from "./title-model";

/**
 * Chat and title models from env. `provider:model` names the provider; a bare name keeps meaning
 * an OpenAI-compatible model so pre-provider settings (`CHAT_MODEL=gpt-4o-mini`) keep working.
 * LangChain's `initChatModel` builds the client; this module only decides which credentials and
 * limits each provider gets, and refuses a setting that cannot work before the server starts.
 */
export type ChatModelEnv = Readonly<Record<string, string | undefined>>;

export const PROVIDERS = ["openai", "anthropic"] as const;
export type Provider = (typeof PROVIDERS)[number];

export interface ModelSpec {
  provider: Provider;
  model: string;
  /** `provider:model`, as stored in a title's provenance and in the audit. */
  id: string;
}

export class ModelConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelConfigError";
  }
}

const DEFAULT_OPENAI_CHAT_MODEL = "gpt-4o-mini";
const trimmed = (env: ChatModelEnv, name: string) => env[name]?.trim() || undefined;

export function offlineDelayMs(env: ChatModelEnv): number {
  const raw = env.OFFLINE_MODEL_DELAY_MS?.trim();
  if (!raw) return 15;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 0 || n > 10_000) {
    throw new ModelConfigError(`OFFLINE_MODEL_DELAY_MS must be an integer between 0 and 10000 (got "${raw}")`);
  }
  return n;
}

/** Parses `provider:model` (or a bare OpenAI-compatible model name) from the named variable. */
export function parseModelSpec(raw: string, variable: string): ModelSpec {
  const value = raw.trim();
  const colon = value.indexOf(":");
  const provider = colon < 0 ? "openai" : value.slice(0, colon).trim().toLowerCase();
  const model = (colon < 0 ? value : value.slice(colon + 1)).trim();
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    throw new ModelConfigError(`${variable} names an unknown provider "${provider}" (got ${JSON.stringify(raw)}); use one of ${PROVIDERS.join(", ")} as provider:model`);
  }
  if (!model || /\s/.test(model)) throw new ModelConfigError(`${variable} must be provider:model, e.g. openai:gpt-4o-mini (got ${JSON.stringify(raw)})`);
  return { provider: provider as Provider, model, id: `${provider}:${model}` };
}

function openAIConfigured(env: ChatModelEnv) {
  return Boolean(trimmed(env, "OPENAI_API_KEY") || trimmed(env, "OPENAI_BASE_URL"));
}

// A base URL alone is enough: local OpenAI- or Anthropic-compatible servers often need no key.
function requireCredentials(spec: ModelSpec, variable: string, env: ChatModelEnv) {
  const prefix = spec.provider === "openai" ? "OPENAI" : "ANTHROPIC";
  if (trimmed(env, `${prefix}_API_KEY`) || trimmed(env, `${prefix}_BASE_URL`)) return;
  throw new ModelConfigError(`${variable}=${spec.id} needs ${prefix}_API_KEY (or ${prefix}_BASE_URL for a local ${spec.provider}-compatible server)`);
}

/** The chat model's spec, or null for the built-in offline model (no provider configured). */
export function chatModelSpec(env: ChatModelEnv): ModelSpec | null {
  const raw = trimmed(env, "CHAT_MODEL");
  if (raw === undefined) return openAIConfigured(env) ? parseModelSpec(DEFAULT_OPENAI_CHAT_MODEL, "CHAT_MODEL") : null;
  const spec = parseModelSpec(raw, "CHAT_MODEL");
  requireCredentials(spec, "CHAT_MODEL", env);
  return spec;
}

/** The title model's spec, or null: titles stay on the local fallback path (no model call). */
export function titleModelSpec(env: ChatModelEnv): ModelSpec | null {
  const raw = trimmed(env, "TITLE_MODEL");
  if (raw === undefined) return null;
  const spec = parseModelSpec(raw, "TITLE_MODEL");
  requireCredentials(spec, "TITLE_MODEL", env);
  return spec;
}

/** True when no provider is configured and the built-in offline model answers. */
export function usesOfflineModel(env: ChatModelEnv): boolean {
  return chatModelSpec(env) === null;
}

/** Throws a ModelConfigError naming the variable when a model setting cannot work. */
export function validateModelEnv(env: ChatModelEnv): void {
  offlineDelayMs(env);
  chatModelSpec(env);
  titleModelSpec(env);
}

function providerParams(spec: ModelSpec, env: ChatModelEnv): Record<string, unknown> {
  if (spec.provider === "openai") {
    const baseURL = trimmed(env, "OPENAI_BASE_URL");
    return {
      apiKey: trimmed(env, "OPENAI_API_KEY") ?? "not-needed",
      ...(baseURL ? { configuration: { baseURL } } : {}),
      // `streaming` is left unset on purpose. `true` makes every non-streamed call estimate tokens
      // with a tokenizer fetched from the internet (it hangs offline, e.g. beside a local server);
      // unset, the model streams whenever the run streams messages and otherwise makes one request.
    };
  }
  const baseURL = trimmed(env, "ANTHROPIC_BASE_URL");
  return { apiKey: trimmed(env, "ANTHROPIC_API_KEY") ?? "not-needed", ...(baseURL ? { anthropicApiUrl: baseURL } : {}) };
}

/** Any configured provider through initChatModel; otherwise the offline model, so the app runs with no key. */
export async function chatModelFromEnv(env: ChatModelEnv): Promise<BaseChatModel> {
  const spec = chatModelSpec(env);
  if (!spec) return createOfflineChatModel({ delayMs: offlineDelayMs(env) });
  return initChatModel(spec.model, { modelProvider: spec.provider, ...providerParams(spec, env) });
}

export interface TitleModelLimits {
  maxOutputTokens: number;
  timeoutMs: number;
}

/**
 * The title model: short output, no reasoning where the provider lets us turn it off, one
 * request with its own timeout and no retries (a retry could outlive the run's wait for it).
 */
export async function titleModelFromEnv(env: ChatModelEnv, limits: TitleModelLimits): Promise<{ model: BaseChatModel; spec: ModelSpec } | null> {
  const spec = titleModelSpec(env);
  if (!spec) return null;
  const common = { maxTokens: limits.maxOutputTokens, maxRetries: 0 };
  const params =
    spec.provider === "openai"
      ? // Sent only to reasoning models (o-series, gpt-5); gpt-5 accepts "minimal", the o-series "low".
        { ...common, timeout: limits.timeoutMs, reasoning: { effort: spec.model.startsWith("gpt-5") ? "minimal" : "low" } }
      : { ...common, thinking: { type: "disabled" }, clientOptions: { timeout: limits.timeoutMs } };
  const model = await initChatModel(spec.model, { modelProvider: spec.provider, ...providerParams(spec, env), ...params });
  return { model, spec };
}

/** TITLE_MODEL → the title call (deadline, audit, validation), or null for local fallback titles. */
export async function titlerFromEnv(env: ChatModelEnv, config: TitleConfig): Promise<ModelTitler | null> {
  const title = await titleModelFromEnv(env, { maxOutputTokens: config.max_output_tokens, timeoutMs: config.timeout_ms });
  return title && createModelTitler({ model: title.model, modelId: title.spec.id, config });
}
