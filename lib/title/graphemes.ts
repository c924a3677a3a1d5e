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

/** Every grapheme cluster of `s`, unclamped: for short texts (a title, a query) only, see above. */
export function graphemesOf(s: string): string[] {
  return Array.from(segmenter.segment(s), (g) => g.segment);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/**
 * The most UTF-16 units one character of a title keeps. The longest real characters (an emoji
 * family with skin tones, a subdivision flag) are under 32; one letter under a pile of 300,000
 * combining marks is a single character to a grapheme count and megabytes to every page that
 * shows it, so the marks past this are dropped.
 */
export const CLUSTER_MAX_UNITS = 32;

/** `g` cut to CLUSTER_MAX_UNITS units at a code point boundary. */
export function clampCluster(g: string): string {
  if (g.length <= CLUSTER_MAX_UNITS) return g;
  return g.slice(0, isHighSurrogate(g.charCodeAt(CLUSTER_MAX_UNITS - 1)) ? CLUSTER_MAX_UNITS - 1 : CLUSTER_MAX_UNITS);
}

/** The first `max` grapheme clusters of `s`, each clamped to CLUSTER_MAX_UNITS. */
export function takeGraphemes(s: string, max: number): string[] {
  return takeWholeGraphemes(s, max).map(clampCluster);
}

function takeWholeGraphemes(s: string, max: number): string[] {
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
  return takeGraphemes(s, max + 1).slice(0, max).join("");
}

/** A text's view (sanitised, Markdown removed…) computed from its start until `budget` units exist. */
export type PrefixView = (s: string, budget: number) => SanitizedPrefix;

/**
 * The first `max` graphemes of view(s), and whether more follow — reading only as much of `s` as
 * that needs, so a 1 MB message costs about as much as a short one.
 */
export type LeadingGraphemes = {
  graphemes: string[];
  more: boolean;
  /** The first character that was past CLUSTER_MAX_UNITS (as clamped), or null. */
  clamped: string | null;
};

export function leadingGraphemes(s: string, max: number, view: PrefixView): LeadingGraphemes {
  for (let budget = Math.max(INITIAL_WINDOW, max * 8); ; budget *= 4) {
    const { text, complete } = view(s, budget);
    const parts = takeWholeGraphemes(text, max + 1);
    // An early-stopped prefix is a prefix of the full result, so the window argument above applies.
    if (complete || parts.length > max) {
      const kept = parts.slice(0, max);
      const long = kept.find((g) => g.length > CLUSTER_MAX_UNITS);
      return { graphemes: kept.map(clampCluster), more: parts.length > max, clamped: long === undefined ? null : clampCluster(long) };
    }
  }
}

/** The first `max` graphemes of sanitizeTitleText(s), and whether more follow. */
export function leadingSanitizedGraphemes(s: string, max: number): LeadingGraphemes {
  return leadingGraphemes(s, max, (text, budget) => sanitizePrefix(text, budget));
}
