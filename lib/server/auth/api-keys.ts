import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import { sqliteStore } from "../store/db";
import { apiKeyStore } from "../store/api-keys";
import { migrate } from "../store/migrations";

/**
 * Per-user API keys for programmatic clients (the SDK from Node, a proxy). Only a SHA-256 of a
 * key is stored, so a copy of the database does not hand out working keys. Behind this small
 * interface so another store (better-auth's API-key plugin) can back it later; the SQL lives in
 * lib/server/store/api-keys.ts.
 */
export interface ApiKeyStore {
  /** The owner of a live key, or null (unknown or revoked). */
  verify(key: string): Promise<{ userId: string; keyId: string } | null>;
  /** Returns the key itself once; only its hash is kept. */
  create(userId: string, name: string): Promise<{ id: string; key: string }>;
  revoke(userId: string, keyId: string): Promise<boolean>;
  list(userId: string): Promise<{ id: string; name: string; created_at: string; last_four: string }[]>;
}

export const hashApiKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

/** The key store in an app SQLite file (the embedded API's, or the one `langgraph dev` reads). */
export function sqliteApiKeyStore(db: Database.Database): ApiKeyStore {
  return afterReady(migrate(sqliteStore(db)), apiKeyStore(sqliteStore(db)));
}

/** A key store whose calls wait for `ready` (the schema's migrations). */
export function afterReady(ready: Promise<unknown>, keys: ApiKeyStore): ApiKeyStore {
  return {
    verify: async (key) => (await ready, keys.verify(key)),
    create: async (userId, name) => (await ready, keys.create(userId, name)),
    revoke: async (userId, keyId) => (await ready, keys.revoke(userId, keyId)),
    list: async (userId) => (await ready, keys.list(userId)),
  };
}
