import { Auth, HTTPException } from "@langchain/langgraph-sdk/auth";
import { ALL_THREADS, type ThreadlineUser } from "./identity";

/**
 * THE isolation rules, written once with LangGraph's own auth contract. `langgraph dev` /
 * LangGraph Platform load them through langgraph.json; the embedded API (lib/server) runs the
 * very same handlers for every route (see enforce.ts).
 *
 * - creating a thread or a run stamps `metadata.owner` with the caller's identity (a value the
 *   client sent is overwritten), and a metadata update cannot move a thread to someone else;
 * - every read, search, update and delete gets the filter `{ owner }`: a search is narrowed to the
 *   caller's threads, and a thread that fails the filter is answered as if it did not exist.
 */
export function buildAuth(identify: (req: Request) => ThreadlineUser | Promise<ThreadlineUser>) {
  return new Auth()
    .authenticate(async (req: Request) => identify(req))
    .on("threads", ({ event, value, user }) => {
      const v = value as { metadata?: Record<string, unknown> | null };
      if (user.permissions.includes(ALL_THREADS)) return;
      const stamps = event === "threads:create" || event === "threads:create_run" || (event === "threads:update" && v.metadata);
      if (stamps) v.metadata = { ...(v.metadata ?? {}), owner: user.identity };
      return { owner: user.identity };
    })
    // The graph's assistant is shared and read-only; nobody creates, changes or deletes assistants.
    .on("assistants", ({ action }) => {
      if (action === "read" || action === "search") return;
      throw new HTTPException(403, { message: "Assistants are read-only" });
    })
    .on("store", ({ user }) => {
      if (user.permissions.includes(ALL_THREADS)) return;
      throw new HTTPException(403, { message: "The store is not shared" });
    });
}
