import type { TitleConfig } from "./config";
import { DEFAULT_TITLE_CONFIG } from "./defaults";
import { contentToText } from "./content";
import { takeGraphemes } from "./graphemes";
import { ELLIPSIS, fitGraphemes } from "./fallback";
import { dropLeadingMarks, sanitizePrefix, showsNothing } from "./sanitize";
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

// Far more than any title; past it a reply is an answer, and cleaning it would only cost time.
export const MODEL_REPLY_BUDGET = 2000;

const HEADING = /^#{1,6}\s+/;
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
    s = dropTrailingPeriod(unwrapOnce(s.replace(HEADING, "").replace(LABEL, "")).trim());
  } while (s !== prev);
  return s;
}

export type ModelReply = {
  /** Sanitised reply without reasoning, before any title clean-up (at most MODEL_REPLY_BUDGET units). */
  raw: string;
  /** `raw` without labels, wrapping quotes, a heading marker or a final full stop; not yet length-capped. */
  cleaned: string;
  /** The reply was longer than MODEL_REPLY_BUDGET, so both texts are its beginning only. */
  truncated: boolean;
  /** Reasoning (a think block) was removed from the reply. */
  thought: boolean;
  /** Non-empty lines of the reply, not counting a line that is only a "Title:" label. */
  lines: number;
};

/** Linear in the reply's size; the clean-up runs on a bounded prefix. */
export function readModelReply(output: unknown): ModelReply {
  const whole = contentToText(output);
  const answer = stripThinkTags(whole);
  const { text, complete } = sanitizePrefix(answer, MODEL_REPLY_BUDGET, true);
  const lines = text.split("\n").filter((line) => line.replace(LABEL, "") !== "").length;
  // Same text as sanitizeTitleText would give: only the line breaks differ.
  const raw = text.replace(/\n/g, " ");
  return { raw, cleaned: clean(raw), truncated: !complete, thought: answer.length !== whole.length, lines };
}

/**
 * The cleaned reply within max_chars graphemes, or null when nothing is left. A longer one is cut
 * as a fallback title is, before a word and with "...", so a cut title says it was cut.
 */
export function capModelTitle(reply: ModelReply, config: Pick<TitleConfig, "max_chars">): string | null {
  const max = config.max_chars;
  const capped = fitGraphemes(takeGraphemes(dropLeadingMarks(reply.cleaned), max + 1), max, max - ELLIPSIS.length).trimEnd();
  return showsNothing(capped) ? null : capped;
}

/** Model reply (string, content blocks or a message) → a safe title, or null when nothing usable remains. */
export function parseModelTitle(output: unknown, config: Pick<TitleConfig, "max_chars"> = DEFAULT_TITLE_CONFIG): string | null {
  return capModelTitle(readModelReply(output), config);
}
