import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { GatedSqliteSaver } from "./sqlite-gate";
import { openDurableSqlite } from "./sqlite-durability";
import { lockPostgres, lockSqliteFile } from "./process-lock";
import { ThreadlinePostgresSaver } from "./postgres-saver";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { TitleConfig } from "@/lib/title";
import { loadTitleConfig } from "@/lib/title/config";
import { createThreadlineAgent, type ThreadlineAgent } from "./agent";
import { chatModelFromEnv, titlerFromEnv, usesOfflineModel } from "./models";
import type { ModelTitler } from "./title-model";

export interface AppAgent {
  /** SQLite mode: the app's one file and connection (the API's registry shares it). */
  db?: Database.Database;
  dbPath?: string;
  /** Postgres mode (DATABASE_URL): the checkpointer has its own pool; the registry opens its own. */
  databaseUrl?: string;
  checkpointer: BaseCheckpointSaver;
  agent: ThreadlineAgent;
  titleConfig: TitleConfig;
  offlineModel: boolean;
  /** The LLM title path (TITLE_MODEL), or null for local fallback titles. */
  titler: ModelTitler | null;
}

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  // The data folder is chosen at run time; keep the bundler from tracing the whole project for it.
  return path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR?.trim() || "./data");
}

/** DATABASE_URL=postgres://… switches the checkpointer and the registry to Postgres. */
export function postgresUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  const url = env.DATABASE_URL?.trim();
  if (!url) return null;
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL (got ${JSON.stringify(url.split(":")[0] + ":…")})`);
  return url;
}

/**
 * Opens the app's database: Postgres when DATABASE_URL is set (PostgresSaver, set up), else the
 * one SQLite file in DATA_DIR (creating it), whose connection the API's registry shares. Either
 * way this process then holds the database's one-process lock.
 */
export async function openAppAgent(env: NodeJS.ProcessEnv = process.env): Promise<AppAgent> {
  // Config errors must stop the server at start, naming the variable; these loaders throw them.
  const titleConfig = loadTitleConfig(env);
  const chatModel = await chatModelFromEnv(env);
  const titler = await titlerFromEnv(env, titleConfig);
  const databaseUrl = postgresUrl(env);
  if (databaseUrl) {
    await lockPostgres(databaseUrl);
    const checkpointer = ThreadlinePostgresSaver.fromUrl(databaseUrl);
    await checkpointer.setup();
    const agent = createThreadlineAgent({ checkpointer, chatModel, titleConfig, titler });
    return { databaseUrl, checkpointer, agent, titleConfig, offlineModel: usesOfflineModel(env), titler };
  }
  const { db, dbPath } = openAppSqlite(dataDir(env));
  // Gated: the registry's transactions on this connection never take a checkpoint write with them.
  const checkpointer = new GatedSqliteSaver(db);
  const agent = createThreadlineAgent({ checkpointer, chatModel, titleConfig, titler });
  return { db, dbPath, checkpointer, agent, titleConfig, offlineModel: usesOfflineModel(env), titler };
}

/**
 * The app's one SQLite file, DATA_DIR/threadline.sqlite (made if missing), locked to this process
 * before anything touches it: a second process on it stops here with `reason` in its message.
 */
export function openAppSqlite(dir: string, reason?: string): { db: Database.Database; dbPath: string } {
  fs.mkdirSync(dir, { recursive: true });
  const dbPath = path.join(dir, "threadline.sqlite");
  lockSqliteFile(dbPath, reason);
  // WAL with group commit: every commit the API acknowledges is fsynced before its response
  // leaves, so a power loss cannot take back a rename or a message it confirmed; one fsync,
  // off the event loop, serves all requests waiting at that moment (sqlite-durability.ts).
  return { db: openDurableSqlite(Database, dbPath), dbPath };
}

const globalKey = Symbol.for("threadline.appAgent");
type GlobalWithAgent = typeof globalThis & { [globalKey]?: Promise<AppAgent> };

/** One per server process; kept on globalThis so dev-mode module reloads don't open a second one. */
export function getAppAgent(): Promise<AppAgent> {
  const g = globalThis as GlobalWithAgent;
  g[globalKey] ??= openAppAgent();
  return g[globalKey];
}
