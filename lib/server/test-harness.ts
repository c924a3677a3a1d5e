import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { GatedSqliteSaver } from "@/lib/agent/sqlite-gate";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Client } from "@langchain/langgraph-sdk";
import { createThreadlineAgent, type ModelTitler } from "@/lib/agent";
import { sleep } from "@/lib/agent/offline-model";
import { DEFAULT_TITLE_CONFIG, type TitleConfig } from "@/lib/title";
import { createApi, type Api } from "./api";
import type { AuthMode } from "./auth/identity";
import type { GuardConfig } from "./auth/request-guard";
import type { AgentGraph } from "./graph";
import type { RunLimits } from "./runs/run-limits";

/**
 * Test-only chat model: answers from a script (cycling), streams word by word with an optional
 * per-token delay that honours abort, and counts its calls — so tests can prove "no extra model
 * call" and can rename a thread while its first answer is still streaming.
 */
export class ScriptedModel extends BaseChatModel {
  calls = 0;
  constructor(
    private readonly replies: string[] = ["Sure, here is an answer."],
    private readonly delayMs = 0,
  ) {
    super({});
  }
  _llmType() {
    return "scripted";
  }
  /** createAgent binds its (empty) tool list; there is nothing to bind. */
  bindTools() {
    return this;
  }
  /** A reply of "__throw__" makes that call fail (error-path tests). */
  private next(): string {
    const reply = this.replies[this.calls++ % this.replies.length];
    if (reply === "__throw__") throw new Error("model exploded");
    return reply;
  }
  /** Non-streaming calls take as long as streaming ones, so cancel tests work in every mode. */
  async _generate(_m: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const text = this.next();
    const tokens = text.match(/\S+\s*/g) ?? [];
    if (this.delayMs) for (let i = 0; i < tokens.length; i++) await sleep(this.delayMs, options.signal);
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
  async *_streamResponseChunks(_m: BaseMessage[], options: this["ParsedCallOptions"], rm?: CallbackManagerForLLMRun) {
    const tokens = this.next().match(/\S+\s*/g) ?? [];
    for (const token of tokens) {
      if (this.delayMs) await sleep(this.delayMs, options.signal);
      const chunk = new ChatGenerationChunk({ text: token, message: new AIMessageChunk({ content: token }) });
      yield chunk;
      await rm?.handleLLMNewToken(token, undefined, undefined, undefined, undefined, { chunk });
    }
  }
}

export { sleep };

export const API_URL = "http://threadline.test/api/langgraph";

export interface Harness {
  api: Api;
  client: Client;
  model: ScriptedModel;
  saver: GatedSqliteSaver;
  db: Database.Database;
  dir: string;
  dbPath: string;
  /** An SDK client that sends this API key (accounts mode). */
  clientWithKey(apiKey: string): Client;
  /** Raw request through the same handler (for non-SDK routes and malformed bodies). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  model?: ScriptedModel;
  titleConfig?: TitleConfig;
  /** The LLM title path (a real provider client against a loopback server, in tests). */
  titler?: ModelTitler | null;
  /** A chat model other than the scripted one (e.g. a real client against a loopback server). */
  chatModel?: BaseChatModel;
  /** Tools the agent may call (multi-step runs). */
  tools?: StructuredToolInterface[];
  /** Reuse a data dir (restart tests). */
  dir?: string;
  runLimits?: Partial<RunLimits>;
  authMode?: AuthMode;
  guard?: GuardConfig;
}

/** A real agent graph on a real SqliteSaver over a temp FILE, behind our handler, driven by the SDK. */
export function createHarness(opts: HarnessOptions = {}): Harness {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "threadline-api-"));
  const dbPath = path.join(dir, "threadline.sqlite");
  const db = new Database(dbPath);
  db.pragma("journal_mode = WAL");
  const saver = new GatedSqliteSaver(db);
  const model = opts.model ?? new ScriptedModel();
  const titleConfig = opts.titleConfig ?? DEFAULT_TITLE_CONFIG;
  const titler = opts.titler ?? null;
  const agent = createThreadlineAgent({ checkpointer: saver, chatModel: opts.chatModel ?? model, titleConfig, titler, tools: opts.tools });
  const api = createApi({
    db,
    checkpointer: saver,
    graph: agent.graph as unknown as AgentGraph,
    titleConfig,
    titler,
    runLimits: opts.runLimits,
    authMode: opts.authMode,
    guard: opts.guard,
  });
  const handler = (u: string | URL | Request, i?: RequestInit) => api.handle(new Request(u, i));
  const client = new Client({ apiUrl: API_URL, callerOptions: { maxRetries: 0, fetch: handler as typeof fetch } });
  return {
    api,
    client,
    model,
    saver,
    db,
    dir,
    dbPath,
    clientWithKey: (apiKey) => new Client({ apiUrl: API_URL, apiKey, callerOptions: { maxRetries: 0, fetch: handler as typeof fetch } }),
    fetch: (p, init) => handler(`${API_URL}${p}`, init),
    async close() {
      await api.ready;
      await api.driftCheck;
      await api.runs.drainAll();
      api.runs.close();
      db.close();
      if (!opts.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Collects an SDK stream into [event, data] pairs. */
export async function collect(stream: AsyncIterable<{ event: string; data: unknown; id?: string }>) {
  const out: { event: string; data: unknown; id?: string }[] = [];
  for await (const part of stream) out.push(part);
  return out;
}

export const human = (text: string) => ({ messages: [{ type: "human", content: text }] });
