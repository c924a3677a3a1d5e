import { sql } from "kysely";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { ThreadlinePostgresSaver } from "@/lib/agent/postgres-saver";
import { GatedSqliteSaver } from "@/lib/agent/sqlite-gate";
import { openDurableSqlite, type DurabilityOptions } from "@/lib/agent/sqlite-durability";
import { postgresStore, type Store } from "./store/db";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { Client } from "@langchain/langgraph-sdk";
import { createThreadlineAgent, type ModelTitler } from "@/lib/agent";
import { sleep } from "@/lib/agent/offline-model";
import { DEFAULT_TITLE_CONFIG, type TitleConfig } from "@/lib/title";
import { createApi, type Api } from "./api";
import type { AccountsDeps } from "./api";
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
  saver: BaseCheckpointSaver;
  /** The SQLite connection (SQLite runs only; Postgres runs have none). */
  db: Database.Database;
  /** "postgres" when TEST_DATABASE_URL is set: the same suite against a database of its own. */
  dialect: "sqlite" | "postgres";
  dir: string;
  dbPath: string;
  /** An SDK client that sends this API key (accounts mode). */
  clientWithKey(apiKey: string): Client;
  /** The process dies: its database connections close at once (no drain); reopen with `createHarness({ dir })`. */
  crash(): Promise<void>;
  /** A raw SQL statement on the registry's database, either dialect (tests that look under the API). */
  sql(text: string): Promise<Record<string, unknown>[]>;
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
  /** The SQLite file's group commit (a slowed-down fsync, in durability tests). */
  durability?: DurabilityOptions;
  /** Reuse a data dir (restart tests). */
  dir?: string;
  runLimits?: Partial<RunLimits>;
  authMode?: AuthMode;
  guard?: GuardConfig;
  /** better-auth's settings in accounts mode; default: a fixed test secret, no public URL. */
  accounts?: AccountsDeps;
}

/** The secret test servers sign their session cookies with. */
export const TEST_AUTH_SECRET = "threadline-test-secret-0123456789abcdef";

/**
 * TEST_DATABASE_URL (postgres://…/postgres on a throwaway server, `npm test` starts one): every
 * harness gets a database of its own, named after its data dir, so a restart test (same `dir`)
 * reopens the same database and parallel suites never see each other.
 */
const TEST_PG = process.env.TEST_DATABASE_URL?.trim() || null;

/** The dialect every harness of this run uses: for the few tests that only make sense on one (`it.skipIf`). */
export const testDialect: Harness["dialect"] = TEST_PG ? "postgres" : "sqlite";

function psql(sqlText: string) {
  const r = spawnSync("psql", [TEST_PG!, "-v", "ON_ERROR_STOP=1", "-qAtc", sqlText], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
  return r.stdout.trim();
}

const testDatabaseName = (dir: string) => `tl_test_${createHash("sha256").update(dir).digest("hex").slice(0, 16)}`;

function testDatabase(dir: string): string {
  const name = testDatabaseName(dir);
  if (!psql(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)) psql(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_PG!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database of a data dir's harnesses (Postgres runs; no-op on SQLite), once every one of them is closed. */
export function dropTestDatabase(dir: string) {
  if (TEST_PG) psql(`DROP DATABASE IF EXISTS ${testDatabaseName(dir)} WITH (FORCE)`);
}

/** A real agent graph on a real checkpointer (SqliteSaver over a temp FILE, or PostgresSaver), behind our handler, driven by the SDK. */
export function createHarness(opts: HarnessOptions = {}): Harness {
  const dir = opts.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "threadline-api-"));
  const dbPath = path.join(dir, "threadline.sqlite");
  let db: Database.Database | undefined;
  let store: Store | undefined;
  let saver: BaseCheckpointSaver;
  const pgUrl = TEST_PG ? testDatabase(dir) : null;
  let closed = false;
  if (pgUrl) {
    saver = ThreadlinePostgresSaver.fromUrl(pgUrl);
    store = postgresStore(pgUrl);
  } else {
    // The app's own way of opening its file (WAL, group commit), so tests exercise it.
    db = openDurableSqlite(Database, dbPath, opts.durability);
    saver = new GatedSqliteSaver(db);
  }
  const model = opts.model ?? new ScriptedModel();
  const titleConfig = opts.titleConfig ?? DEFAULT_TITLE_CONFIG;
  const titler = opts.titler ?? null;
  const agent = createThreadlineAgent({ checkpointer: saver, chatModel: opts.chatModel ?? model, titleConfig, titler, tools: opts.tools });
  const api = createApi({
    db,
    store,
    checkpointer: saver,
    graph: agent.graph as unknown as AgentGraph,
    titleConfig,
    titler,
    runLimits: opts.runLimits,
    authMode: opts.authMode,
    guard: opts.guard,
    accounts: opts.accounts ?? { secret: TEST_AUTH_SECRET },
  });
  const handler = (u: string | URL | Request, i?: RequestInit) => api.handle(new Request(u, i));
  const client = new Client({ apiUrl: API_URL, callerOptions: { maxRetries: 0, fetch: handler as typeof fetch } });
  return {
    api,
    client,
    model,
    saver,
    db: db as Database.Database,
    dialect: pgUrl ? "postgres" : "sqlite",
    dir,
    dbPath,
    clientWithKey: (apiKey) => new Client({ apiUrl: API_URL, apiKey, callerOptions: { maxRetries: 0, fetch: handler as typeof fetch } }),
    fetch: (p, init) => handler(`${API_URL}${p}`, init),
    sql: async (text) => (await sql.raw<Record<string, unknown>>(text).execute(api.q.store.kysely)).rows,
    async crash() {
      db?.close();
      if (pgUrl && !closed) {
        closed = true;
        await store!.close();
        await (saver as ThreadlinePostgresSaver).end();
      }
    },
    async close() {
      await api.ready;
      await api.driftCheck;
      await api.runs.drainAll();
      api.runs.close();
      db?.close();
      if (pgUrl && !closed) {
        closed = true;
        await store!.close();
        await (saver as ThreadlinePostgresSaver).end();
        if (!opts.dir) dropTestDatabase(dir);
      }
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
