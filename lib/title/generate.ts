import type { TitleConfig } from "./config";
import { DEFAULT_TITLE_CONFIG } from "./defaults";
import { isRealUserMessage, messageRole } from "./messages";

export type TitleState = { title?: string | null; messages?: unknown[] | null };
export type ShouldGenerateOptions = { allowPartialExchange?: boolean; config?: TitleConfig };

/**
 * A title is due once, right after the first exchange: a thread with no title yet, a real user
 * message (hidden context reminders do not count) and an AI reply — or no reply yet when
 * allowPartialExchange. Usually that is the first message; a thread whose first run brought
 * several messages, or whose messages were written before any run, is titled all the same.
 */
export function shouldGenerateTitle(state: TitleState, opts: ShouldGenerateOptions = {}): boolean {
  const config = opts.config ?? DEFAULT_TITLE_CONFIG;
  if (!config.enabled) return false;
  if (typeof state.title === "string" && state.title.trim() !== "") return false;
  const messages = Array.isArray(state.messages) ? state.messages : [];
  const users = messages.filter(isRealUserMessage).length;
  if (users < 1) return false;
  return opts.allowPartialExchange === true || messages.some((m) => messageRole(m) === "assistant");
}
