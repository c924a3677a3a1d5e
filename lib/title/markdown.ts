import { type SanitizedPrefix, sanitizePrefix } from "./sanitize";
import { UNSPACED_SCRIPTS } from "./scripts";

// Markdown syntax → the text a reader sees, for fallback titles. Not a Markdown parser: line
// markers and a few inline forms, each confined to one line and to a bounded length. That bound is
// what lets a title read only the start of a 1 MB message: the result for a position depends on
// at most INLINE_REACH characters after it, so a prefix gives the exact result up to that margin.

const SPAN = 200; // longest emphasis, link text or code span recognised
const URL_MAX = 1000;
const INLINE_REACH = 2 * SPAN + URL_MAX + 16;

const BT = "`";
// Scripts written without spaces put `*` and `~` emphasis right against letters, as CommonMark
// allows for those markers (not for `_`): 这是**重要**的问题.
// Korean too: it has spaces, but its particles sit right against the word before them.
const UNSPACED = String.raw`[${UNSPACED_SCRIPTS}\p{Script=Hangul}]`;
const BEFORE = String.raw`(?:(?<=^|[\s\p{P}\p{S}])|(?<=${UNSPACED})(?=[*~]))`;
const AFTER = String.raw`(?:(?=$|[\s\p{P}\p{S}])|(?<=[*~])(?=${UNSPACED}))`;
// Alternatives are tried in this order at each position: code keeps its text literally, and a
// URL is claimed before the "_" or "*" inside it could be taken for emphasis.
const INLINE = new RegExp(
  [
    String.raw`(?<ticks>${BT}{1,3})(?!${BT})(?<code>[^\n]{1,${SPAN}}?)(?<!${BT})\k<ticks>(?!${BT})`,
    String.raw`!?\[(?<linkText>[^\[\]\n]{0,${SPAN}})\]\([^()\s]{0,${URL_MAX}}(?:\s+"[^"\n]{0,${SPAN}}")?\)`,
    String.raw`!?\[(?<refText>[^\[\]\n]{1,${SPAN}})\]\[[^\[\]\n]{0,${SPAN}}\]`,
    String.raw`<(?<autolink>(?:https?|ftp|mailto):[^<>\s]{1,${URL_MAX}})>`,
    String.raw`(?<url>\b(?:https?|ftp):\/\/[^\s<>]{1,${URL_MAX}})`,
    // Paired markers at word boundaries only, so snake_case_words and 2*3*4 stay as they are.
    String.raw`${BEFORE}(?<mark>\*\*\*|___|\*\*|__|~~|\*|_)(?=\S)(?<em>[^\n]{1,${SPAN}}?)(?<=\S)\k<mark>(?![*_~])${AFTER}`,
  ].join("|"),
  "gu",
);

type Groups = Partial<Record<"code" | "linkText" | "refText" | "autolink" | "url" | "em", string>>;

function replacement(g: Groups): string {
  if (g.code !== undefined) return g.code;
  if (g.autolink !== undefined) return g.autolink;
  if (g.url !== undefined) return g.url;
  const inner = g.linkText ?? g.refText ?? g.em ?? "";
  return inline(inner, inner.length);
}

/** Inline syntax removed from `line`, for input positions before `stopAt` (matches starting there are kept whole). */
function inline(line: string, stopAt: number): string {
  let out = "";
  let pos = 0;
  INLINE.lastIndex = 0;
  for (let m = INLINE.exec(line); m !== null && m.index < stopAt; m = INLINE.exec(line)) {
    out += line.slice(pos, m.index);
    pos = m.index + m[0].length;
    // replacement() recurses into this function, which moves the shared regex: resume after the match.
    out += replacement(m.groups as Groups);
    INLINE.lastIndex = pos;
  }
  return out + line.slice(pos, Math.max(pos, stopAt));
}

// A backtick fence's info string has no backtick, else "```code```" on one line would open a block.
const FENCE = /^(?:`{3,}(?!.*`)|~{3,})/;
const CLOSING_FENCE = /^(`{3,}|~{3,})\s*$/;
const THEMATIC_BREAK = /^(?:[-*_=]\s*){3,}$/;
const QUOTE = /^(?:>\s?)+/;
const HEADING = /^#{1,6}(?:\s+|$)/;
const CLOSING_HASHES = /\s+#+$/;
const BULLET = /^[-*+](?:\s+|$)(?:\[[ xX]\](?:\s+|$))?/;
// A cut line shorter than this may still become a fence, a break or a longer marker; wait for more.
const UNDECIDED_LINE = 16;
const MAY_BE_FENCE_OR_BREAK = /^(?:[`~]|[-*_=\s]*$)/;

/**
 * Markdown line by line; `complete` false means the last line may be cut short, and then only the
 * part of it that no later text can change is returned.
 */
function stripLines(text: string, complete: boolean): string {
  const lines = text.split("\n");
  const out: string[] = [];
  let fence: string | null = null;
  lines.forEach((raw, i) => {
    const cut = !complete && i === lines.length - 1;
    if (cut && (raw.length < UNDECIDED_LINE || MAY_BE_FENCE_OR_BREAK.test(raw))) return;
    if (fence !== null) {
      const close = CLOSING_FENCE.exec(raw);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      else out.push(raw);
      return;
    }
    if (FENCE.test(raw)) {
      // The info string ("```ts") is not content.
      fence = FENCE.exec(raw)![0];
      return;
    }
    let line = raw.replace(QUOTE, "");
    if (THEMATIC_BREAK.test(line)) return;
    if (HEADING.test(line)) {
      line = line.replace(HEADING, "");
      if (!cut) line = line.replace(CLOSING_HASHES, "");
    } else line = line.replace(BULLET, "");
    const stopAt = cut ? line.length - INLINE_REACH : line.length;
    if (stopAt > 0) out.push(inline(line, stopAt));
  });
  return out.join("\n");
}

/**
 * The start of markdownToPlainText(s) with at least `budget` units (or all of it), read from a
 * bounded prefix of `s`. `complete` says it is the whole result.
 */
export function plainTextPrefix(s: string, budget: number): SanitizedPrefix {
  // Sanitised first, so an escape sequence cannot hide a marker; lines kept for the line markers.
  const { text, complete } = sanitizePrefix(s, budget + INLINE_REACH, true);
  const plain = stripLines(text, complete).replace(/\s+/g, " ").trim();
  return { text: plain, complete };
}

/** Sanitised text with Markdown syntax removed and whitespace collapsed to single spaces. */
export function markdownToPlainText(s: string): string {
  return plainTextPrefix(s, Infinity).text;
}
