import { BaseChatModel, type BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { messageAttachments } from "@/lib/title";
import { isNamed } from "@/lib/title/attachments";
import { OFFLINE_MODEL_NAME } from "@/lib/chat/offline-answer";

export { OFFLINE_MODEL_NAME };

/** Embeddings, overrides, isolates and marks (LRE…RLO, LRI…PDI, LRM, RLM, ALM). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export interface OfflineChatModelOptions extends BaseChatModelParams {
  /** Pause between streamed tokens, so streaming and Stop are visible. */
  delayMs?: number;
}

function lastUserMessage(messages: BaseMessage[]): BaseMessage | undefined {
  return messages.findLast((m) => m.type === "human");
}

/** The names of the files a message carries (from the title engine's reader), never their bytes. */
export function attachedFileNames(message: BaseMessage | undefined): string[] {
  return messageAttachments(message).map((a) => (isNamed(a) ? a.name : a.kind === "image" ? "an image" : "a file"));
}

function listed(names: string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** Deterministic reply: says plainly it is offline and how to get a real model. */
export function offlineReply(messages: BaseMessage[]): string {
  const last = lastUserMessage(messages);
  const asked = (last ? (typeof last.content === "string" ? last.content : last.text) : "").replace(/\s+/g, " ").trim();
  const quoted = asked.length > 80 ? `${asked.slice(0, 80)}…` : asked;
  const files = attachedFileNames(last);
  return [
    files.length
      ? `I can see you attached ${listed(files)}, but I'm Threadline's offline model: no language model is configured, so I can't read ${files.length > 1 ? "them" : "it"} or really answer.`
      : "I'm Threadline's offline model: no language model is configured, so I can't really answer.",
    // The quote is a bidi isolate (FSI … PDI) with the user's own bidi controls taken out (a stray
    // PDI would close ours early): nothing typed can reverse the rest of the reply.
    quoted ? `You said: "\u2068${quoted.replace(BIDI_CONTROLS, "")}\u2069".` : "",
    "To chat with a real model, set OPENAI_API_KEY (and optionally OPENAI_BASE_URL and CHAT_MODEL) and restart the server.",
  ]
    .filter(Boolean)
    .join(" ");
}

/** Splits into word-plus-trailing-space tokens so the stream looks like a model's. */
function tokenize(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

/** A pause that ends early, rejecting, when the signal aborts (so Stop is immediate). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("Aborted"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("Aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export class OfflineChatModel extends BaseChatModel {
  delayMs: number;

  constructor(options: OfflineChatModelOptions = {}) {
    super(options);
    this.delayMs = Math.max(0, options.delayMs ?? 15);
  }

  /** The offline model never calls tools, so binding them changes nothing; createAgent requires it. */
  override bindTools(): this {
    return this;
  }

  _llmType(): string {
    return OFFLINE_MODEL_NAME;
  }

  /** Paced like the stream, so a run takes as long whether or not the client streams tokens. */
  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    let text = "";
    for await (const chunk of this._streamResponseChunks(messages, options)) text += chunk.text;
    return {
      generations: [{ text, message: new AIMessage({ content: text, response_metadata: { model_name: OFFLINE_MODEL_NAME, finish_reason: "stop" } }) }],
    };
  }

  async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const tokens = tokenize(offlineReply(messages));
    for (let i = 0; i < tokens.length; i++) {
      if (this.delayMs > 0) await sleep(this.delayMs, options.signal);
      const last = i === tokens.length - 1;
      const chunk = new ChatGenerationChunk({
        text: tokens[i],
        message: new AIMessageChunk({
          content: tokens[i],
          response_metadata: last ? { model_name: OFFLINE_MODEL_NAME, finish_reason: "stop" } : {},
        }),
      });
      yield chunk;
      await runManager?.handleLLMNewToken(tokens[i], undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

export function createOfflineChatModel(options: OfflineChatModelOptions = {}): OfflineChatModel {
  return new OfflineChatModel(options);
}
