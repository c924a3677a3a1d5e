import { createMiddleware } from "langchain";
import { z } from "zod";
import {
  DEFAULT_TITLE_CONFIG,
  decideTitle,
  fallbackTitle,
  firstUserText,
  shouldGenerateTitle,
  titleFactOf,
  type TitleConfig,
  type TitleFact,
  type TitleSource,
} from "@/lib/title";
import { titleStateSchema } from "./title-state";

/**
 * What the host passes in the run's context. In-process, the API server hands over a reader of
 * the registry's pin so a rename made while this run is going is honoured; under `langgraph dev`
 * the context is plain JSON, the reader is absent and the pin is just `title_source.kind === "user"`.
 */
export interface TitleRuntimeContext {
  readTitlePin?: () => TitleFact | null | Promise<TitleFact | null>;
}

const contextSchema = z.object({
  readTitlePin: z.custom<TitleRuntimeContext["readTitlePin"]>((v) => v === undefined || typeof v === "function").optional(),
});

/**
 * The graph node that title writes from outside a run (rename, pin repair, regenerate) are
 * attributed to: its out-edge ends the graph when the model made no tool call, so such an update
 * leaves no pending step, even on a thread that has never run.
 */
export const TITLE_WRITER_NODE = "TitleMiddleware.after_model";

export interface TitleProposalInput {
  userText: string;
  assistantText: string;
  config: TitleConfig;
  signal?: AbortSignal;
}

/**
 * Seam for the LLM path: given the first exchange, propose a title with its source.
 * The default is the local fallback; a model-backed generator must itself fall back on failure.
 */
export type TitleGenerator = (input: TitleProposalInput) => Promise<{ title: string; source: TitleSource }>;

export const fallbackTitleGenerator: TitleGenerator = async ({ userText, config }) => ({
  title: fallbackTitle(userText, config),
  source: { kind: "fallback" },
});

type TitleState = { title?: string | null; title_source?: TitleSource | null; messages?: unknown[] };

async function currentTitle(state: TitleState, context: TitleRuntimeContext | undefined): Promise<TitleFact> {
  const inState = titleFactOf(state);
  const pin = await context?.readTitlePin?.();
  // The registry's pin is newer than this run's view of state when a rename raced the run.
  return pin?.source?.kind === "user" ? pin : inState;
}

function lastAssistantText(messages: unknown[] | undefined): string {
  const last = messages?.at(-1) as { text?: unknown; content?: unknown } | undefined;
  if (!last) return "";
  return typeof last.text === "string" ? last.text : typeof last.content === "string" ? last.content : "";
}

export interface TitleMiddlewareOptions {
  config?: TitleConfig;
  generate?: TitleGenerator;
}

export function createTitleMiddleware({ config = DEFAULT_TITLE_CONFIG, generate = fallbackTitleGenerator }: TitleMiddlewareOptions = {}) {
  async function propose(state: TitleState, runtime: { context?: TitleRuntimeContext; signal?: AbortSignal }, allowPartialExchange: boolean) {
    if (!shouldGenerateTitle(state, { allowPartialExchange, config })) return undefined;
    const userText = firstUserText(state.messages) ?? "";
    const proposal = allowPartialExchange
      ? await fallbackTitleGenerator({ userText, assistantText: "", config })
      : await generate({ userText, assistantText: lastAssistantText(state.messages), config, signal: runtime.signal });
    const current = await currentTitle(state, runtime.context);
    if (!decideTitle(current, proposal).accept) return undefined;
    return { title: proposal.title, title_source: proposal.source };
  }

  return createMiddleware({
    name: "TitleMiddleware",
    stateSchema: titleStateSchema,
    contextSchema,
    // Instant title: written before the model is called, so the first run's values events
    // carry it before the first answer token.
    beforeAgent: async (state, runtime) =>
      config.instant ? propose(state as TitleState, runtime as never, true) : undefined,
    // The DeerFlow moment: after the first model response (a no-op when the instant title is set).
    afterModel: async (state, runtime) => propose(state as TitleState, runtime as never, false),
  });
}
