import { createAgent } from "langchain";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { DEFAULT_TITLE_CONFIG, type TitleConfig } from "@/lib/title";
import { createAttachmentDeliveryMiddleware } from "./attachment-delivery";
import { createOfflineChatModel } from "./offline-model";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { createTitleMiddleware } from "./title-middleware";
import type { ModelTitler } from "./title-model";

export const ASSISTANT_ID = "agent";

export const SYSTEM_PROMPT = "You are Threadline, a helpful assistant. Answer clearly and concisely.";

export interface ThreadlineAgentOptions {
  checkpointer?: BaseCheckpointSaver;
  chatModel?: BaseChatModel;
  titleConfig?: TitleConfig;
  /** The LLM title path; null or absent = local fallback only (no title-model call). */
  titler?: ModelTitler | null;
  /** Tools the model may call (none in the app today; tests use them to make multi-step runs). */
  tools?: StructuredToolInterface[];
}

/**
 * Chain order: middleware = [...others, TitleMiddleware]. afterModel hooks run in REVERSE list
 * order, so keeping TitleMiddleware last makes its afterModel run first, on the raw first answer,
 * before any later hook can jump to the end or interrupt and skip it. beforeAgent hooks run in
 * list order; the instant title only reads the user's message, so its position there is free.
 */
export function createThreadlineAgent({
  checkpointer,
  chatModel = createOfflineChatModel(),
  titleConfig = DEFAULT_TITLE_CONFIG,
  titler = null,
  tools = [],
}: ThreadlineAgentOptions = {}) {
  return createAgent({
    name: ASSISTANT_ID,
    model: chatModel,
    tools,
    systemPrompt: SYSTEM_PROMPT,
    middleware: [createAttachmentDeliveryMiddleware(), createTitleMiddleware({ config: titleConfig, titler })] as const,
    checkpointer,
  });
}

export type ThreadlineAgent = ReturnType<typeof createThreadlineAgent>;
