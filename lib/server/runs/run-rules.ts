import { coerceMessageLikeToMessage } from "@langchain/core/messages";
import { unprocessable } from "../http/errors";
import type { RunCreate } from "../http/schemas";

/**
 * Rules a request must keep before it reaches the graph. The title is changed only by rename,
 * regenerate and the TitleMiddleware (all through decideTitle); graph internals (checkpoint
 * addressing, `__pregel_*`, the host's context) are the server's, never the client's.
 */

/** The state keys a client may write (run input, command.update, plain state update). */
export const CLIENT_STATE_KEYS: readonly string[] = ["messages"];
const TITLE_KEYS = new Set(["title", "title_source"]);

const titleRefused = (where: string) =>
  `title-invalid: ${where} may not set title or title_source (the server sets them); rename with POST /threads/{id}/state {"values":{"title":"..."}} or use POST /threads/{id}/title/regenerate`;

/** Refuses any state key a client may not write; `where` names the field in the message. */
export function checkClientStateKeys(keys: Iterable<string>, where: string) {
  for (const key of keys) {
    if (TITLE_KEYS.has(key)) throw unprocessable(titleRefused(where));
    if (!CLIENT_STATE_KEYS.includes(key)) {
      throw unprocessable(`${where}: ${JSON.stringify(key)} is not a state key a client may write (allowed: ${CLIENT_STATE_KEYS.join(", ")})`);
    }
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Why a message object's fields would fail later, inside the run (or be stored as they are), or null. */
function messageFieldProblem(message: Record<string, unknown>): string | null {
  // A LangChain-serialized message (`new HumanMessage(…)` through the SDK): its fields are its kwargs.
  const serialized = message.lc === 1 && message.type === "constructor";
  if (serialized && !isPlainObject(message.kwargs)) return "kwargs must be an object";
  const m = serialized ? (message.kwargs as Record<string, unknown>) : message;
  const { content } = m;
  // (An AI message that only calls tools may carry null content.)
  if (content !== undefined && content !== null && typeof content !== "string") {
    if (!Array.isArray(content)) return "content must be a string or a list of content blocks";
    if (content.some((b) => typeof b !== "string" && !(isPlainObject(b) && typeof b.type === "string"))) return "each content block must be a string or an object with a string type";
  }
  if (m.id !== undefined && m.id !== null && typeof m.id !== "string") return "id must be a string";
  if (m.name !== undefined && m.name !== null && typeof m.name !== "string") return "name must be a string";
  if (m.tool_calls !== undefined && !Array.isArray(m.tool_calls)) return "tool_calls must be a list";
  if (m.additional_kwargs !== undefined && !isPlainObject(m.additional_kwargs)) return "additional_kwargs must be an object";
  if (m.response_metadata !== undefined && !isPlainObject(m.response_metadata)) return "response_metadata must be an object";
  return null;
}

/**
 * Messages a client writes (run input, command.update, plain state update) must be messages the
 * graph can run on: a shape error is the client's 422 at the door, not a failed run that keeps
 * the bad message.
 */
export function checkClientMessages(messages: unknown, where: string) {
  if (messages === undefined || messages === null) return;
  const list = Array.isArray(messages) ? messages : [messages];
  list.forEach((m, i) => {
    const at = Array.isArray(messages) ? `${where}[${i}]` : where;
    const problem = isPlainObject(m) ? messageFieldProblem(m) : null;
    if (problem) throw unprocessable(`${at} is not a valid message: ${problem}`);
    try {
      coerceMessageLikeToMessage(m as never);
    } catch {
      throw unprocessable(`${at} is not a message`);
    }
  });
}

/**
 * `config.configurable` keys a run accepts. useStream and the SDK add `thread_id`; it must be the
 * path's. The checkpoint to run from goes in the top-level `checkpoint` field (checked for 404).
 */
export const CONFIGURABLE_KEYS: readonly string[] = ["thread_id"];
const CHECKPOINT_KEYS = new Set(["checkpoint_id", "checkpoint_ns", "checkpoint_map"]);

function checkConfigurable(threadId: string, configurable: Record<string, unknown>) {
  for (const [key, value] of Object.entries(configurable)) {
    if (key === "thread_id") {
      if (value !== threadId) throw unprocessable("config.configurable.thread_id must equal the thread id in the path");
    } else if (CHECKPOINT_KEYS.has(key)) {
      throw unprocessable(`config.configurable.${key} is reserved: send the checkpoint to run from as the top-level "checkpoint" field`);
    } else if (key.startsWith("__")) {
      throw unprocessable(`config.configurable.${key} is reserved for the graph runtime`);
    } else {
      throw unprocessable(`config.configurable.${key} is not supported (allowed: ${CONFIGURABLE_KEYS.join(", ")})`);
    }
  }
}

/** Context keys the host sets for the run (the registry's pin reader); a client cannot replace them. */
export const HOST_CONTEXT_KEYS: readonly string[] = ["readTitlePin", "recordTitleRequest"];

function checkContext(context: Record<string, unknown>) {
  for (const key of Object.keys(context)) {
    if (HOST_CONTEXT_KEYS.includes(key) || key.startsWith("__")) throw unprocessable(`context.${key} is set by the server`);
  }
}

export function checkRunRequest(threadId: string, body: RunCreate) {
  if (body.input) {
    checkClientStateKeys(Object.keys(body.input), "input");
    checkClientMessages(body.input.messages, "input.messages");
  }
  const update = body.command?.update;
  if (update) {
    checkClientStateKeys(Array.isArray(update) ? update.map(([k]) => k) : Object.keys(update), "command.update");
    for (const [key, value] of Array.isArray(update) ? update : Object.entries(update)) if (key === "messages") checkClientMessages(value, "command.update.messages");
  }
  if (body.config?.configurable) checkConfigurable(threadId, body.config.configurable);
  if (body.context) checkContext(body.context);
}
