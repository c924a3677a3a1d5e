import type { TitleConfig } from "./config";
import { truncateGraphemes } from "./graphemes";
import { stripThinkTags } from "./think";

// A title needs the gist, not a whole pasted document; this also bounds the title model's cost.
export const PROMPT_MESSAGE_MAX_CHARS = 500;

const PLACEHOLDER = /\{(max_words|user_msg|assistant_msg)\}/g;

export function buildTitlePrompt(config: TitleConfig, userMsg: string, assistantMsg: string): string {
  const values: Record<string, string> = {
    max_words: String(config.max_words),
    user_msg: truncateGraphemes(userMsg.trim(), PROMPT_MESSAGE_MAX_CHARS),
    assistant_msg: truncateGraphemes(stripThinkTags(assistantMsg).trim(), PROMPT_MESSAGE_MAX_CHARS),
  };
  // One pass, so a "{assistant_msg}" typed by the user is not substituted a second time.
  return config.prompt_template.replace(PLACEHOLDER, (_, key: string) => values[key]);
}
