import { type SanitizedPrefix, sanitizePrefix } from "./sanitize";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

// V8's segment iterator costs O(string length) per step, so walking even 100 graphemes of a 1 MB
// string takes ~0.3 s. Everything here segments a bounded window instead and grows it only when needed.
// That is exact because a grapheme boundary depends only on the text before it and the code point
// right after it: once a window holds max+1 graphemes, its first max are those of the whole string.
const INITIAL_WINDOW = 256;

function firstSegments(s: string, count: number): string[] {
  const out: string[] = [];
  for (const { segment } of segmenter.segment(s)) {
    out.push(segment);
    if (out.length >= count) break;
  }
  return out;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** The first `max` grapheme clusters of `s`. */
export function takeGraphemes(s: string, max: number): string[] {
  if (max <= 0) return [];
  for (let window = Math.max(INITIAL_WINDOW, max * 8); ; window *= 4) {
    // Never end a window inside a surrogate pair: the half would change the last boundary.
    const end = window < s.length && isHighSurrogate(s.charCodeAt(window - 1)) ? window + 1 : window;
    const whole = end >= s.length;
    const parts = firstSegments(whole ? s : s.slice(0, end), max + 1);
    if (whole || parts.length > max) return parts.slice(0, max);
  }
}

/** `s` cut to at most `max` graphemes, never splitting one. */
export function truncateGraphemes(s: string, max: number): string {
  const parts = takeGraphemes(s, max + 1);
  return parts.length <= max ? s : parts.slice(0, max).join("");
}

/** A text's view (sanitised, Markdown removed…) computed from its start until `budget` units exist. */
export type PrefixView = (s: string, budget: number) => SanitizedPrefix;

/**
 * The first `max` graphemes of view(s), and whether more follow — reading only as much of `s` as
 * that needs, so a 1 MB message costs about as much as a short one.
 */
export function leadingGraphemes(s: string, max: number, view: PrefixView): { graphemes: string[]; more: boolean } {
  for (let budget = Math.max(INITIAL_WINDOW, max * 8); ; budget *= 4) {
    const { text, complete } = view(s, budget);
    const parts = takeGraphemes(text, max + 1);
    // An early-stopped prefix is a prefix of the full result, so the window argument above applies.
    if (complete || parts.length > max) return { graphemes: parts.slice(0, max), more: parts.length > max };
  }
}

/** The first `max` graphemes of sanitizeTitleText(s), and whether more follow. */
export function leadingSanitizedGraphemes(s: string, max: number): { graphemes: string[]; more: boolean } {
  return leadingGraphemes(s, max, (text, budget) => sanitizePrefix(text, budget));
}
