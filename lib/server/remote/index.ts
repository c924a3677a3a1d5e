import path from "node:path";
import { remoteApiSetting } from "@/lib/remote-api-setting";
import { dataDir } from "@/lib/agent/runtime";
import { getAccountsHost } from "../app-api";
import { openRenameJournal } from "../store/rename-journal";
import { identify, type ThreadlineUser } from "../auth/identity";
import { remoteConfigFromEnv } from "./config";
import { createForwarder, type Forwarder } from "./forward";

export { remoteConfigFromEnv } from "./config";
export type { Forwarder } from "./forward";

const key = Symbol.for("threadline.remote");
type G = typeof globalThis & { [key]?: Forwarder | null };

/**
 * The process's forwarder when LANGGRAPH_API_URL is set, else null (the embedded API serves).
 * On globalThis so Next dev's module reloads keep one set of pending renames.
 */
export function getRemote(): Forwarder | null {
  const g = globalThis as G;
  if (g[key] === undefined) {
    const config = remoteConfigFromEnv();
    // With accounts on, the caller is identified here exactly as the embedded API would (a
    // better-auth session or an API key, both kept in DATA_DIR) and forwarded as a signed token.
    g[key] = config
      ? createForwarder(config, { resolveUser: signedInUser, journal: openRenameJournal(path.join(dataDir(), "pending-renames.sqlite")) })
      : null;
  }
  return g[key];
}

/**
 * Accounts' sign-in and keys live in this server's own database, even in front of a LangGraph
 * server: opened alone (getAccountsHost), without the embedded API's graph or checkpointer.
 */
async function signedInUser(req: Request): Promise<ThreadlineUser> {
  const { auth } = await getAccountsHost();
  const { accounts, keys } = auth;
  if (!accounts || !keys) throw new Error("accounts mode without its accounts database"); // config.mode is accounts here
  return identify(req, "accounts", () => keys, (headers) => accounts.sessionUser(headers));
}

/** Is the app in front of an external LangGraph server? (Cheap: reads the environment.) */
export const usesRemoteServer = (env: Readonly<Record<string, string | undefined>> = process.env) => remoteApiSetting(env) != null;
