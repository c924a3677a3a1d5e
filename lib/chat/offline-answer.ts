/**
 * The built-in offline model's name, on every answer it writes (`response_metadata.model_name`).
 * In front of a LangGraph server the web server does not know which model that server runs, so the
 * chat view learns it from the answers. Shared by server and browser, hence this framework-free module.
 */
export const OFFLINE_MODEL_NAME = "threadline-offline";

export function isOfflineAnswer(message: unknown): boolean {
  const meta = (message as { response_metadata?: unknown } | null)?.response_metadata;
  return typeof meta === "object" && meta !== null && (meta as Record<string, unknown>).model_name === OFFLINE_MODEL_NAME;
}

const isAnswer = (m: unknown) => (m as { type?: unknown } | null)?.type === "ai";

/**
 * Whether the latest finished answer came from the offline model (false before any). While an
 * answer streams, its name comes only with its last token, so the one before it tells meanwhile.
 */
export function lastAnswerOffline(messages: readonly unknown[], streaming = false): boolean {
  const done = streaming && isAnswer(messages.at(-1)) ? messages.slice(0, -1) : messages;
  const last = done.findLast(isAnswer);
  return last !== undefined && isOfflineAnswer(last);
}
