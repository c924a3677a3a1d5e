// Entry point for `langgraph dev` / LangGraph Platform (langgraph.json → "auth"): the same rules
// the embedded API enforces, with API keys read from the app's SQLite file in DATA_DIR.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { sqliteApiKeyStore, type ApiKeyStore } from "./api-keys";
import { authModeFromEnv, identify } from "./identity";
import { buildAuth } from "./rules";

let keys: ApiKeyStore | undefined;
/** The API-key store in DATA_DIR, opened on the first request that carries a key. */
function keyStore(): ApiKeyStore {
  if (!keys) {
    const dir = path.resolve(process.env.DATA_DIR?.trim() || "./data");
    fs.mkdirSync(dir, { recursive: true });
    const db = new Database(path.join(dir, "threadline.sqlite"));
    db.pragma("busy_timeout = 5000");
    keys = sqliteApiKeyStore(db);
  }
  return keys;
}

const mode = authModeFromEnv();
export const auth = buildAuth((req) => identify(req, mode, keyStore));
export default auth;
