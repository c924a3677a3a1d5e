import { contentToText } from "./content";

/** additional_kwargs key holding the user's text before any server-side rewriting. */
export const ORIGINAL_USER_TEXT_KEY = "original_user_text";
/** additional_kwargs flag marking an injected dynamic-context reminder (not typed by the user). */
export const HIDDEN_CONTEXT_KEY = "threadline_hidden";

export type MessageRole = "user" | "assistant" | "system" | "tool" | "other";

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null;

// Serialized LangChain form: {lc:1, type:"constructor", id:[..., "HumanMessage"], kwargs:{...}}.
function lcKwargs(m: Obj): Obj | null {
  if (m.lc !== 1 || m.type !== "constructor" || !Array.isArray(m.id)) return null;
  return isObj(m.kwargs) ? m.kwargs : {};
}

function callTypeMethod(m: Obj): string | undefined {
  for (const key of ["getType", "_getType"]) {
    const fn = m[key];
    if (typeof fn !== "function") continue;
    try {
      const t: unknown = fn.call(m);
      if (typeof t === "string") return t;
    } catch {
      // A foreign object with a throwing getter must not break title generation.
    }
  }
  return undefined;
}

function rawType(m: Obj): string | undefined {
  if (lcKwargs(m)) {
    const id = m.id as unknown[];
    const last = id[id.length - 1];
    return typeof last === "string" ? last : undefined;
  }
  if (typeof m.type === "string") return m.type;
  return callTypeMethod(m);
}

function roleOf(name: string | undefined): MessageRole | "generic" {
  if (name === undefined) return "other";
  // "HumanMessageChunk", "AIMessage", "human", "ai" all reduce to the same stem.
  const stem = name.toLowerCase().replace(/(message)?(chunk)?$/, "");
  switch (stem) {
    case "human":
    case "user":
      return "user";
    case "ai":
    case "assistant":
      return "assistant";
    case "system":
    case "developer":
      return "system";
    case "tool":
    case "function":
      return "tool";
    case "generic":
    case "chat":
      return "generic";
    default:
      return "other";
  }
}

function fields(m: Obj): Obj {
  return lcKwargs(m) ?? m;
}

export function messageRole(m: unknown): MessageRole {
  if (!isObj(m)) return "other";
  const byType = roleOf(rawType(m));
  if (byType !== "generic" && byType !== "other") return byType;
  // Plain {role} dicts and LangChain ChatMessage (type "generic") carry the role separately.
  const role = fields(m).role;
  const byRole = roleOf(typeof role === "string" ? role : undefined);
  return byRole === "generic" ? "other" : byRole;
}

function additionalKwargs(m: unknown): Obj {
  if (!isObj(m)) return {};
  const kw = fields(m).additional_kwargs;
  return isObj(kw) ? kw : {};
}

export function messageContent(m: unknown): unknown {
  return isObj(m) ? fields(m).content : undefined;
}

export function isRealUserMessage(m: unknown): boolean {
  return messageRole(m) === "user" && additionalKwargs(m)[HIDDEN_CONTEXT_KEY] !== true;
}

export function userMessageText(m: unknown): string {
  const original = additionalKwargs(m)[ORIGINAL_USER_TEXT_KEY];
  if (typeof original === "string") return original;
  return contentToText(messageContent(m));
}

export function firstUserText(messages: unknown[] | null | undefined): string | null {
  const first = (messages ?? []).find(isRealUserMessage);
  return first === undefined ? null : userMessageText(first);
}
