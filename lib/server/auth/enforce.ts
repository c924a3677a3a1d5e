import type { Auth } from "@langchain/langgraph-sdk/auth";
import { ApiError } from "../http/errors";
import type { ThreadlineUser } from "./identity";

/** `{ owner: "u1" }`, `{ owner: { $eq: "u1" } }`, `{ tags: { $contains: "x" } }`: LangGraph's filter shape. */
export type AuthFilters = Record<string, unknown>;
export type AuthEvent = `${"threads" | "assistants" | "store"}:${string}`;

type Handlers = {
  authenticate?: (req: Request) => unknown;
  callbacks?: Record<string, (arg: Record<string, unknown>) => unknown>;
};

/** LangGraph's HTTPException (from a rule) → our `{detail}` error with the same status. */
function asApiError(err: unknown): unknown {
  if (err && typeof err === "object" && "status" in err && typeof err.status === "number" && "headers" in err) {
    const message = err instanceof Error && err.message ? err.message : err.status === 401 ? "Unauthorized" : "Forbidden";
    return new ApiError(err.status, message);
  }
  return err;
}

/**
 * Runs a LangGraph `Auth` object's handlers inside the embedded API with the LangGraph server's
 * semantics: the same callback lookup order, the same meaning of a handler's result
 * (nothing/true = allowed, false = 403, an object = a filter), the same value mutation.
 */
export class AuthRunner {
  private readonly handlers: Handlers;
  constructor(auth: Auth) {
    this.handlers = (auth as unknown as { "~handlerCache": Handlers })["~handlerCache"];
  }

  async authenticate(req: Request): Promise<ThreadlineUser> {
    if (!this.handlers.authenticate) throw new Error("The auth rules have no authenticate handler");
    let out: unknown;
    try {
      out = await this.handlers.authenticate(req);
    } catch (err) {
      throw asApiError(err);
    }
    if (typeof out === "string") return { identity: out, permissions: [] };
    const user = out as ThreadlineUser;
    return { ...user, permissions: Array.isArray(user.permissions) ? user.permissions : [] };
  }

  /** The filter a handler returned for this event (undefined = none). `value` may be changed in place. */
  async authorize(user: ThreadlineUser, event: AuthEvent, value: Record<string, unknown>): Promise<AuthFilters | undefined> {
    const [resource, action] = event.split(":");
    const cbs = this.handlers.callbacks ?? {};
    const key = [event, resource, `*:${action}`, "*"].find((k) => cbs[k]);
    if (!key) return undefined;
    let result: unknown;
    try {
      result = await cbs[key]({ event, resource, action, value, permissions: user.permissions, user: { is_authenticated: true, display_name: user.identity, ...user } });
    } catch (err) {
      throw asApiError(err);
    }
    if (result == null || result === true) return undefined;
    if (result === false) throw new ApiError(403, "Forbidden");
    if (typeof result !== "object") throw new Error(`Auth handler returned ${typeof result}; expected a filter, a boolean or nothing`);
    return result as AuthFilters;
  }
}

/** Does a thread's metadata pass a filter? Same operators as the LangGraph server. */
export function matchesFilters(metadata: Record<string, unknown>, filters: AuthFilters | undefined): boolean {
  if (!filters) return true;
  return Object.entries(filters).every(([key, want]) => {
    const have = metadata[key];
    if (want && typeof want === "object") {
      const op = want as { $eq?: unknown; $contains?: unknown };
      if ("$eq" in op) return have === op.$eq;
      if ("$contains" in op) {
        if (!Array.isArray(have)) return false;
        const needed = Array.isArray(op.$contains) ? op.$contains : [op.$contains];
        return needed.every((v) => have.includes(v));
      }
      return true;
    }
    return have === want;
  });
}
