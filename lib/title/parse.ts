import type { TitleConfig } from "./config";
import { DEFAULT_TITLE_CONFIG } from "./config";
import { contentToText } from "./content";
import { truncateGraphemes } from "./graphemes";
import { sanitizeTitleText } from "./sanitize";
import { stripThinkTags } from "./think";

// Wrapping pairs models put around a title despite being told not to.
const QUOTE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'],
  ["'", "'"],
  ["\u201c", "\u201d"],
  ["\u2018", "\u2019"],
  ["\u300c", "\u300d"],
  ["\u300e", "\u300f"],
  ["\u300a", "\u300b"],
  ["\u00ab", "\u00bb"],
  ["`", "`"],
  ["**", "**"],
];

const LABEL = /^(?:\*\*\s*title\s*[:：]\s*\*\*|\*\*\s*title\s*\*\*\s*[:：]|title\s*[:：])\s*/i;
const LETTER = /[\p{L}\p{N}]/u;

// An apostrophe between letters (Don't, l’été) is part of a word, not a closing quote.
function hasStrayClose(inner: string, close: string): boolean {
  for (let i = inner.indexOf(close); i >= 0; i = inner.indexOf(close, i + 1)) {
    const apostrophe = (close === "'" || close === "\u2019") && LETTER.test(inner[i - 1] ?? "") && LETTER.test(inner[i + 1] ?? "");
    if (!apostrophe) return true;
  }
  return false;
}

function unwrapOnce(s: string): string {
  for (const [open, close] of QUOTE_PAIRS) {
    if (s.length < open.length + close.length || !s.startsWith(open) || !s.endsWith(close)) continue;
    const inner = s.slice(open.length, s.length - close.length);
    // `"A" and "B"` starts and ends with a quote but is not wrapped by one pair.
    if (hasStrayClose(inner, close) || (open !== close && inner.includes(open))) continue;
    return inner.trim();
  }
  return s;
}

function dropTrailingPeriod(s: string): string {
  // An ellipsis is deliberate; a single full stop is the sentence habit the prompt forbids.
  return /(?:^|[^.])[.。．]$/u.test(s) ? s.slice(0, -1).trimEnd() : s;
}

function clean(s: string): string {
  let prev: string;
  do {
    prev = s;
    s = dropTrailingPeriod(unwrapOnce(s.replace(LABEL, "")).trim());
  } while (s !== prev);
  return s;
}

/** Model reply (string, content blocks or a message) → a safe title, or null when nothing usable remains. */
export function parseModelTitle(output: unknown, config: Pick<TitleConfig, "max_chars"> = DEFAULT_TITLE_CONFIG): string | null {
  const text = clean(sanitizeTitleText(stripThinkTags(contentToText(output))));
  const capped = truncateGraphemes(text, config.max_chars).trimEnd();
  return capped === "" ? null : capped;
}
