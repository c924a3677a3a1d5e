/**
 * The mark on an assistant message whose run was stopped (Stop, or another client's interrupt)
 * while it was being written: the server keeps the streamed text in state with
 * `response_metadata[STOPPED_ANSWER_KEY] === true`, the chat view shows it with a "stopped" mark.
 * Shared by server and browser, hence this framework-free module.
 */
export const STOPPED_ANSWER_KEY = "threadline_stopped";

/** A message's `response_metadata` (the model's name, the stopped mark), or null when it has none. */
export function responseMetadataOf(message: unknown): Record<string, unknown> | null {
  const meta = (message as { response_metadata?: unknown } | null)?.response_metadata;
  return typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>) : null;
}

export function isStoppedAnswer(message: unknown): boolean {
  return responseMetadataOf(message)?.[STOPPED_ANSWER_KEY] === true;
}
