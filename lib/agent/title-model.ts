import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { buildTitleRequest, validateModelTitle, type AttachmentInfo, type TitleConfig, type TitleSource } from "@/lib/title";

/** Why a title was asked for: the first exchange, a later prompt (all-prompts cadence) or "Let AI name this". */
export type TitlePurpose = "first" | "refresh" | "regenerate";
export type TitleRequestOutcome = "accepted" | "rejected" | "error" | "timeout";

/** One title request as it was sent and how it ended: the audit trail the API serves. */
export interface TitleRequestRecord {
  thread_id: string | null;
  at: string;
  model: string;
  purpose: TitlePurpose;
  system: string | null;
  user: string;
  max_tokens: number;
  outcome: TitleRequestOutcome;
  title: string | null;
  reason: string | null;
  latency_ms: number;
}

export type TitleAuditSink = (record: TitleRequestRecord) => void | Promise<void>;

export interface TitleRequestInput {
  threadId?: string | null;
  purpose: TitlePurpose;
  userText: string;
  attachments?: AttachmentInfo[];
  assistantText?: string;
  latest?: { userText: string; assistantText: string };
  /** The run's signal (cancel) — the request also ends on its own after `timeout_ms`. */
  signal?: AbortSignal;
  audit?: TitleAuditSink;
}

export type TitleAttempt = { ok: true; title: string; source: TitleSource } | { ok: false; reason: string };

export interface ModelTitler {
  modelId: string;
  /** A custom template that uses `{assistant_msg}` can only start once the first answer exists. */
  needsAssistant: boolean;
  request(input: TitleRequestInput): Promise<TitleAttempt>;
}

export const TITLE_RUN_NAME = "title_agent";
// `langsmith:nostream` keeps the title call's tokens out of the run's messages stream even though
// it inherits the run's callbacks; `middleware:title` lets a tracer find it.
export const TITLE_CALL_TAGS = ["langsmith:nostream", "middleware:title"];

export const TITLE_FAILURE_PREFIX = "automatic title generation failed:";

export interface ModelTitlerOptions {
  model: BaseChatModel;
  modelId: string;
  config: TitleConfig;
  /** Where the one failure line goes (tests capture it). */
  warn?: (line: string) => void;
  now?: () => number;
}

function describeError(err: unknown): string {
  const e = err instanceof Error ? err : new Error(String(err));
  const status = (e as { status?: unknown }).status;
  return `${typeof status === "number" ? `HTTP ${status} ` : ""}${e.name}: ${e.message}`.slice(0, 300);
}

/**
 * Asks a model for a title: the engine builds the request and judges the reply; this adds the
 * call itself, its deadline and the audit record. It never throws: the worst outcome is
 * `{ ok: false }` and one warning line, so nothing a title model does can fail a run.
 */
export function createModelTitler({ model, modelId, config, warn = console.warn, now = Date.now }: ModelTitlerOptions): ModelTitler {
  const sample = buildTitleRequest(config, { userText: "" });
  return {
    modelId,
    needsAssistant: sample.needsAssistant,
    async request(input) {
      const started = now();
      const built = buildTitleRequest(config, {
        userText: input.userText,
        assistantText: input.assistantText,
        attachments: input.attachments,
        latest: input.latest,
      });
      const messages: BaseMessage[] = [...(built.system ? [new SystemMessage(built.system)] : []), new HumanMessage(built.user)];
      const deadline = AbortSignal.timeout(config.timeout_ms);
      const signal = input.signal ? AbortSignal.any([input.signal, deadline]) : deadline;
      let outcome: TitleRequestOutcome;
      let attempt: TitleAttempt;
      try {
        const reply = await model.invoke(messages, {
          signal,
          tags: TITLE_CALL_TAGS,
          runName: TITLE_RUN_NAME,
          metadata: { title_purpose: input.purpose },
        });
        const verdict = validateModelTitle(reply, { userText: input.userText, config });
        attempt = verdict.ok ? { ok: true, title: verdict.title, source: { kind: "model", model: modelId } } : { ok: false, reason: `rejected: ${verdict.reason}` };
        outcome = verdict.ok ? "accepted" : "rejected";
      } catch (err) {
        const timedOut = deadline.aborted && !input.signal?.aborted;
        outcome = timedOut ? "timeout" : "error";
        attempt = { ok: false, reason: timedOut ? `timeout after ${config.timeout_ms} ms` : describeError(err) };
      }
      if (!attempt.ok && !input.signal?.aborted) warn(`${TITLE_FAILURE_PREFIX} ${attempt.reason} (model ${modelId})`);
      const record: TitleRequestRecord = {
        thread_id: input.threadId ?? null,
        at: new Date(started).toISOString(),
        model: modelId,
        purpose: input.purpose,
        system: built.system,
        user: built.user,
        max_tokens: config.max_output_tokens,
        outcome,
        title: attempt.ok ? attempt.title : null,
        reason: attempt.ok ? null : attempt.reason,
        latency_ms: Math.max(0, now() - started),
      };
      try {
        await input.audit?.(record);
      } catch (err) {
        warn(`title request audit could not be stored: ${describeError(err)}`);
      }
      return attempt;
    },
  };
}
