import { createHash, randomBytes, randomUUID } from "node:crypto";
import type Database from "better-sqlite3";

/**
 * Per-user API keys for programmatic clients (the SDK from Node, a proxy). Only a SHA-256 of a
 * key is stored, so a copy of the database does not hand out working keys. Behind this small
 * interface so another store (better-auth's API-key plugin) can back it later.
 */
export interface ApiKeyStore {
  /** The owner of a live key, or null (unknown or revoked). */
  verify(key: string): { userId: string; keyId: string } | null;
  /** Returns the key itself once; only its hash is kept. */
  create(userId: string, name: string): { id: string; key: string };
  revoke(userId: string, keyId: string): boolean;
  list(userId: string): { id: string; name: string; created_at: string; last_four: string }[];
}

const DDL = `
CREATE TABLE IF NOT EXISTS tl_api_keys (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  last_four TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS tl_api_keys_user ON tl_api_keys (user_id);
`;

export const hashApiKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

export function sqliteApiKeyStore(db: Database.Database): ApiKeyStore {
  db.exec(DDL);
  const byHash = db.prepare<[string], { id: string; user_id: string }>(
    "SELECT id, user_id FROM tl_api_keys WHERE key_hash = ? AND revoked_at IS NULL",
  );
  const insert = db.prepare("INSERT INTO tl_api_keys (id, user_id, name, key_hash, last_four, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const revoke = db.prepare("UPDATE tl_api_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL");
  const list = db.prepare<[string], { id: string; name: string; created_at: string; last_four: string }>(
    "SELECT id, name, created_at, last_four FROM tl_api_keys WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC",
  );
  return {
    verify(key) {
      const row = byHash.get(hashApiKey(key));
      return row ? { userId: row.user_id, keyId: row.id } : null;
    },
    create(userId, name) {
      const key = `tl_${randomBytes(32).toString("base64url")}`;
      const id = randomUUID();
      insert.run(id, userId, name, hashApiKey(key), key.slice(-4), new Date().toISOString());
      return { id, key };
    },
    revoke: (userId, keyId) => revoke.run(new Date().toISOString(), keyId, userId).changes > 0,
    list: (userId) => list.all(userId),
  };
}
