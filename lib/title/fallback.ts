import type { TitleConfig } from "./config";
import { DEFAULT_TITLE_CONFIG } from "./config";
import { leadingSanitizedGraphemes } from "./graphemes";

export const EMPTY_TITLE = "New Conversation";

// Fallback titles stay short even when max_chars allows a long model title.
const FALLBACK_LIMIT = 50;
const ELLIPSIS = "...";

/**
 * Instant title from the user's text (the browser shows it before the server answers, so it must be
 * deterministic and cheap). Cuts on grapheme boundaries and appends "..." when the text is too long.
 */
export function fallbackTitle(text: string, config: Pick<TitleConfig, "max_chars"> = DEFAULT_TITLE_CONFIG): string {
  const limit = Math.min(config.max_chars, FALLBACK_LIMIT);
  const keep = Math.max(0, Math.min(limit, config.max_chars - ELLIPSIS.length));
  const { graphemes, more } = leadingSanitizedGraphemes(typeof text === "string" ? text : "", limit);
  if (more) return graphemes.slice(0, keep).join("").trimEnd() + ELLIPSIS;
  const whole = graphemes.join("");
  return whole === "" ? EMPTY_TITLE : whole;
}
