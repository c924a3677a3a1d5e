import { randomBytes, randomUUID } from "node:crypto";
import type { ApiKeyStore } from "../auth/api-keys";
import { hashApiKey } from "../auth/api-keys";
import type { Store } from "./db";

/** The API-key table behind auth's ApiKeyStore (only a SHA-256 of each key is stored). */
export function apiKeyStore(store: Store): ApiKeyStore {
  const x = store.exec;
  return {
    async verify(key) {
      const row = await x().selectFrom("tl_api_keys").select(["id", "user_id"]).where("key_hash", "=", hashApiKey(key)).where("revoked_at", "is", null).executeTakeFirst();
      return row ? { userId: row.user_id, keyId: row.id } : null;
    },
    async create(userId, name) {
      const key = `tl_${randomBytes(32).toString("base64url")}`;
      const id = randomUUID();
      await x()
        .insertInto("tl_api_keys")
        .values({ id, user_id: userId, name, key_hash: hashApiKey(key), last_four: key.slice(-4), created_at: new Date().toISOString(), revoked_at: null })
        .execute();
      return { id, key };
    },
    async revoke(userId, keyId) {
      const r = await x()
        .updateTable("tl_api_keys")
        .set({ revoked_at: new Date().toISOString() })
        .where("id", "=", keyId)
        .where("user_id", "=", userId)
        .where("revoked_at", "is", null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    list: (userId) =>
      x().selectFrom("tl_api_keys").select(["id", "name", "created_at", "last_four"]).where("user_id", "=", userId).where("revoked_at", "is", null).orderBy("created_at", "desc").execute(),
  };
}
