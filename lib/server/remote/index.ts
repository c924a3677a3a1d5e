import { identify } from "../auth/identity";
import { keyStore } from "../auth/langgraph-auth";
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
    // With accounts on, the caller is identified here as the embedded API would (API keys in
    // DATA_DIR today; a browser session once sign-in exists) and forwarded as a signed token.
    g[key] = config ? createForwarder(config, { resolveUser: async (req) => identify(req, "accounts", keyStore) }) : null;
  }
  return g[key];
}

/** Is the app in front of an external LangGraph server? (Cheap: reads the environment.) */
export const usesRemoteServer = (env: Readonly<Record<string, string | undefined>> = process.env) => Boolean(env.LANGGRAPH_API_URL?.trim());
