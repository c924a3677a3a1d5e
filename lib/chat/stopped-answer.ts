/**
 * The mark on an assistant message whose run was stopped (Stop, or another client's interrupt)
 * while it was being written: the server keeps the streamed text in state with
 * `response_metadata[STOPPED_ANSWER_KEY] === true`, the chat view shows it with a "stopped" mark.
 * Shared by server and browser, hence this framework-free module.
 */
export const STOPPED_ANSWER_KEY = "threadline_stopped";

export function isStoppedAnswer(message: unknown): boolean {
  const meta = (message as { response_metadata?: unknown } | null)?.response_metadata;
  return typeof meta === "object" && meta !== null && (meta as Record<string, unknown>)[STOPPED_ANSWER_KEY] === true;
}
