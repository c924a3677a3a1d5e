import { createMiddleware } from "langchain";
import { z } from "zod";
import {
  DEFAULT_TITLE_CONFIG,
  decideTitle,
  isRealUserMessage,
  messageAttachments,
  messageRole,
  shouldGenerateTitle,
  titleFactOf,
  userMessageText,
  type TitleConfig,
  type TitleFact,
  type TitleSource,
} from "@/lib/title";
import { proposeFallbackTitle, type TitleProposal } from "./title-proposals";
import { PendingTitleCalls } from "./pending-title-calls";
import type { ModelTitler, TitleAuditSink } from "./title-model";
import { titleStateSchema } from "./title-state";

/**
 * What the host passes in the run's context. In-process, the API server hands over a reader of
 * the registry's pin (a rename made while this run is going is honoured) and a sink for the
 * title-request audit; under `langgraph dev` the context is plain JSON, both are absent, the pin
 * is just `title_source.kind === "user"` in state and title requests are only logged.
 */
export interface TitleRuntimeContext {
  readTitlePin?: () => TitleFact | null | Promise<TitleFact | null>;
  recordTitleRequest?: TitleAuditSink;
}

const fn = <T>() => z.custom<T>((v) => v === undefined || typeof v === "function").optional();
const contextSchema = z.object({
  readTitlePin: fn<TitleRuntimeContext["readTitlePin"]>(),
  recordTitleRequest: fn<TitleRuntimeContext["recordTitleRequest"]>(),
});

/**
 * The graph node that title writes from outside a run (rename, pin repair, regenerate) are
 * attributed to: the agent's last node, whose out-edge ends the graph, so such an update leaves
 * no pending step, even on a thread that has never run.
 */
export const TITLE_WRITER_NODE = "TitleMiddleware.after_agent";

type TitleState = { title?: string | null; title_source?: TitleSource | null; messages?: unknown[] };
type Runtime = { context?: TitleRuntimeContext; signal?: AbortSignal; configurable?: { thread_id?: string } };

async function currentTitle(state: TitleState, context: TitleRuntimeContext | undefined): Promise<TitleFact> {
  const inState = titleFactOf(state);
  const pin = await context?.readTitlePin?.();
  // The registry's pin is newer than this run's view of state when a rename raced the run.
  return pin?.source?.kind === "user" ? pin : inState;
}

function lastAssistantText(messages: unknown[] | undefined): string {
  const last = [...(messages ?? [])].reverse().find((m) => messageRole(m) === "assistant") as { text?: unknown; content?: unknown } | undefined;
  if (!last) return "";
  return typeof last.text === "string" ? last.text : typeof last.content === "string" ? last.content : "";
}

export interface TitleMiddlewareOptions {
  config?: TitleConfig;
  /** The LLM title path; null/absent = the local fallback only, with no model call at all. */
  titler?: ModelTitler | null;
}

export function createTitleMiddleware({ config = DEFAULT_TITLE_CONFIG, titler = null }: TitleMiddlewareOptions = {}) {
  const pending = new PendingTitleCalls();

  async function writeIfAllowed(state: TitleState, runtime: Runtime, proposal: TitleProposal | null) {
    if (!proposal) return undefined;
    const current = await currentTitle(state, runtime.context);
    if (!decideTitle(current, proposal).accept) return undefined;
    return { title: proposal.title, title_source: proposal.source };
  }

  /** A model title is asked for once per conversation (or per new prompt with `all-prompts`), never over a pin. */
  async function startModelTitle(state: TitleState, runtime: Runtime, assistantText: string) {
    if (!titler || !config.enabled) return;
    const users = (state.messages ?? []).filter(isRealUserMessage);
    if (!users.length) return;
    // A later prompt of a titled thread is not due (first-prompt); one still untitled (a first
    // run with several messages, or messages written before any run) is. State says which, before
    // the pin is read: a pin stops the call below anyway.
    if (config.cadence === "first-prompt" && users.length > 1 && state.title?.trim()) return;
    const current = await currentTitle(state, runtime.context);
    const untitled = !current.title?.trim();
    if (current.source?.kind === "user") return;
    if (config.cadence === "first-prompt" && current.source?.kind === "model") return;
    const first = users[0];
    const latest = users.at(-1);
    const userText = userMessageText(first).trim();
    // An attachment-only message: the model must not invent a title from the answer alone.
    if (!userText) return;
    const key = runtime.configurable?.thread_id ?? "";
    // Several model steps (tool loops) in one run still make one title call.
    if (pending.has(key)) return;
    pending.start(key, (signal) =>
      titler.request({
        threadId: runtime.configurable?.thread_id ?? null,
        purpose: users.length === 1 || untitled ? "first" : "refresh",
        userText,
        attachments: messageAttachments(first),
        assistantText,
        latest: users.length > 1 && !untitled ? { userText: userMessageText(latest), assistantText: "" } : undefined,
        signal,
        audit: runtime.context?.recordTitleRequest,
      }),
      runtime.signal,
    );
  }

  return createMiddleware({
    name: "TitleMiddleware",
    stateSchema: titleStateSchema,
    contextSchema,
    beforeAgent: async (state, runtime) => {
      const s = state as TitleState;
      const r = runtime as Runtime;
      // The default prompt needs only the user's message: ask now, in parallel with the answer.
      if (titler && !titler.needsAssistant) await startModelTitle(s, r, "");
      // Instant title: written before the model is called, so the first run's values events
      // carry it before the first answer token.
      if (!config.instant || !shouldGenerateTitle(s, { allowPartialExchange: true, config })) return undefined;
      return writeIfAllowed(s, r, proposeFallbackTitle(s.messages, config));
    },
    afterModel: async (state, runtime) => {
      const s = state as TitleState;
      const r = runtime as Runtime;
      if (titler?.needsAssistant) await startModelTitle(s, r, lastAssistantText(s.messages));
      // The DeerFlow moment: after the first model response (a no-op when the instant title is set).
      if (!shouldGenerateTitle(s, { config })) return undefined;
      return writeIfAllowed(s, r, proposeFallbackTitle(s.messages, config));
    },
    // The answer has streamed: wait for the title call (bounded) and apply it through the one rule,
    // reading the pin now, so a rename made while the call was in flight wins.
    afterAgent: async (state, runtime) => {
      const r = runtime as Runtime;
      const attempt = await pending.take(r.configurable?.thread_id ?? "", config.timeout_ms);
      if (!attempt?.ok) return undefined;
      return writeIfAllowed(state as TitleState, r, { title: attempt.title, source: attempt.source });
    },
  });
}
