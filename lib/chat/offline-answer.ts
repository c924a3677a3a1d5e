import { messageRole } from "@/lib/title";
import { isStoppedAnswer, responseMetadataOf } from "./stopped-answer";

/**
 * The built-in offline model's name, on every answer it writes (`response_metadata.model_name`).
 * In front of a LangGraph server the web server does not know which model that server runs, so the
 * chat view learns it from the answers. Shared by server and browser, hence this framework-free module.
 */
export const OFFLINE_MODEL_NAME = "threadline-offline";

/**
 * Whether the latest answer that names its model came from the offline model (false before any).
 * An answer's name comes with its last token, so one still streaming, or stopped before its end
 * (isStoppedAnswer), is passed over for the one before it; a finished answer without a name (a
 * provider that sets none) is a real model's.
 */
export function lastAnswerOffline(messages: readonly unknown[], streaming = false): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (messageRole(m) !== "assistant") continue;
    const name = responseMetadataOf(m)?.model_name;
    if (name !== undefined) return name === OFFLINE_MODEL_NAME;
    if (isStoppedAnswer(m) || (streaming && i === messages.length - 1)) continue;
    return false;
  }
  return false;
}
