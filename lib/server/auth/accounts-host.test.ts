import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { serveAuthRoute, serveKeySettings } from "./account-routes";
import { openAccountsOnly, type AccountsOnly } from "./accounts-host";
import { ORIGIN, PASSWORD, sessionCookieOf, someIp } from "./session-testing";

/**
 * Accounts in front of a LangGraph server open the app's database for accounts alone: sign-up,
 * sessions and keys work on it, and nothing of the embedded API (its checkpointer's tables) is
 * made. On the SQLite file, and on Postgres when TEST_DATABASE_URL is set.
 */
const TEST_PG = process.env.TEST_DATABASE_URL?.trim() || null;
const psql = (text: string) => {
  const r = spawnSync("psql", [TEST_PG!, "-v", "ON_ERROR_STOP=1", "-qAtc", text], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
};

/** Every checkpointer table either saver would make (SqliteSaver; PostgresSaver). */
const CHECKPOINT_TABLES = ["checkpoints", "writes", "checkpoint_blobs", "checkpoint_writes", "checkpoint_migrations"];

let opened: AccountsOnly | null = null;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await opened?.close();
  opened = null;
  for (const c of cleanups.splice(0)) c();
});

const dialects = TEST_PG ? (["sqlite", "postgres"] as const) : (["sqlite"] as const);

describe.each(dialects)("accounts alone on %s", (dialect) => {
  async function open() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "threadline-accounts-only-"));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const env: Record<string, string> = { DATA_DIR: dir, THREADLINE_AUTH: "accounts" };
    if (dialect === "postgres") {
      const name = `tl_test_accounts_${process.pid}_${Date.now()}`;
      psql(`CREATE DATABASE ${name}`);
      cleanups.push(() => psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      const url = new URL(TEST_PG!);
      url.pathname = `/${name}`;
      env.DATABASE_URL = url.toString();
    }
    opened = await openAccountsOnly(env);
    await opened.ready;
    return { host: opened, env };
  }

  async function tables(host: AccountsOnly): Promise<string[]> {
    const q =
      dialect === "sqlite"
        ? sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`
        : sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`;
    return (await q.execute(host.store.kysely)).rows.map((r) => r.name);
  }

  it("a sign-up's cookie names the user, a key made through the key routes verifies, and no checkpoint table exists", async () => {
    const { host } = await open();
    const signUp = await serveAuthRoute(
      host,
      new Request(`${ORIGIN}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: ORIGIN, "x-forwarded-for": someIp() },
        body: JSON.stringify({ name: "ana", email: "ana@example.com", password: PASSWORD }),
      }),
    );
    expect(signUp.status).toBe(200);
    const cookie = sessionCookieOf(signUp);
    const user = await host.auth.accounts!.sessionUser(new Headers({ cookie }));
    expect(user).toMatchObject({ email: "ana@example.com" });

    const made = await serveKeySettings(
      host,
      new Request(`${ORIGIN}/api/account/keys`, { method: "POST", headers: { cookie, Origin: ORIGIN, "Content-Type": "application/json" }, body: JSON.stringify({ name: "cli" }) }),
      null,
    );
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    expect(await host.auth.keys!.verify(key)).toMatchObject({ userId: user!.id });

    const names = await tables(host);
    expect(names).toEqual(expect.arrayContaining(["user", "session", "account", "tl_api_keys"]));
    expect(names.filter((n) => CHECKPOINT_TABLES.includes(n))).toEqual([]);
  }, 60_000);

  it.runIf(dialect === "postgres")("a second web process on the same accounts database is refused at start, saying why", async () => {
    const { env } = await open();
    await expect(openAccountsOnly(env)).rejects.toThrow(/already served by another Threadline process.*Sign-in limits/);
  }, 30_000);
});
