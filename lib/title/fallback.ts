import { type AttachmentInfo, type AttachmentKind, UNNAMED } from "./attachments";
import type { TitleConfig } from "./config";
import { DEFAULT_TITLE_CONFIG } from "./defaults";
import { type PrefixView, leadingGraphemes } from "./graphemes";
import { plainTextPrefix } from "./markdown";
import { dropLeadingMarks, sanitizePrefix, sanitizeTitleText, showsNothing } from "./sanitize";
import { UNSPACED_SCRIPTS } from "./scripts";

export const EMPTY_TITLE = "New Conversation";

// Fallback titles stay short even when max_chars allows a long model title.
const FALLBACK_LIMIT = 50;
export const ELLIPSIS = "...";

type CutConfig = Pick<TitleConfig, "max_chars"> & Partial<Pick<TitleConfig, "fallback_cut">>;

// A cut between two of these splits no word: these scripts are written without spaces.
const UNSPACED = new RegExp(`^[${UNSPACED_SCRIPTS}]`, "u");
// Backing off further than this to a space would lose too much of the text.
const WORD_CUT_MIN_SHARE = 0.6;

const splitsWord = (before: string, after: string) =>
  before !== " " && after !== " " && !UNSPACED.test(before) && !UNSPACED.test(after);

/** The body kept before "...": DeerFlow's grapheme cut, moved back to a space when it would split a word. */
function body(graphemes: string[], keep: number, cut: CutConfig["fallback_cut"]): string[] {
  if (cut === "grapheme" || keep === 0 || !splitsWord(graphemes[keep - 1], graphemes[keep])) return graphemes.slice(0, keep);
  for (let i = keep - 1; i >= Math.ceil(keep * WORD_CUT_MIN_SHARE); i--) if (graphemes[i] === " ") return graphemes.slice(0, i);
  return graphemes.slice(0, keep);
}

/**
 * `graphemes` (at least one past `limit` when there are more) as a title of at most `limit`
 * graphemes: whole when it fits, else its first `keep`, moved back before a word, and "...".
 */
export function fitGraphemes(graphemes: string[], limit: number, keep: number, cut: CutConfig["fallback_cut"] = "word"): string {
  if (graphemes.length <= limit) return graphemes.join("");
  return body(graphemes, Math.max(0, keep), cut).join("").trimEnd() + ELLIPSIS;
}

/** `text` (as `view` shows it) within the fallback length rule, or null when nothing visible is left. */
function cutTitle(text: string, config: CutConfig, view: PrefixView): string | null {
  // The browser passes config it received as JSON; a missing bound must not mean an endless loop.
  const maxChars = Number.isSafeInteger(config?.max_chars) && config.max_chars > 0 ? config.max_chars : DEFAULT_TITLE_CONFIG.max_chars;
  const limit = Math.min(maxChars, FALLBACK_LIMIT);
  const keep = Math.max(0, Math.min(limit, maxChars - ELLIPSIS.length));
  // One grapheme past the limit: the word rule needs to see what follows the cut. Marks left at
  // the front by the view (after a heading's "# ") go: a prefix without them is still a prefix.
  const marksDropped: PrefixView = (s, budget) => {
    const r = view(s, budget);
    return { text: dropLeadingMarks(r.text), complete: r.complete };
  };
  const { graphemes } = leadingGraphemes(text, limit + 1, marksDropped);
  const fitted = fitGraphemes(graphemes, limit, keep, config?.fallback_cut);
  return showsNothing(fitted) ? null : fitted;
}

const sanitizedView: PrefixView = (s, budget) => sanitizePrefix(s, budget);

/**
 * Instant title from the user's text (the browser shows it before the server answers, so it must be
 * deterministic and cheap): Markdown syntax removed, sanitised, cut on grapheme boundaries — before
 * a word rather than inside it — with "..." when the text is too long.
 */
export function fallbackTitle(text: string, config: CutConfig = DEFAULT_TITLE_CONFIG): string {
  return cutTitle(typeof text === "string" ? text : "", config, plainTextPrefix) ?? EMPTY_TITLE;
}

const KIND_ORDER: readonly AttachmentKind[] = ["image", "pdf", "text", "file"];
const NOUNS: Readonly<Record<AttachmentKind, readonly [string, string]>> = {
  image: ["image", "images"],
  pdf: ["PDF", "PDFs"],
  text: ["text file", "text files"],
  file: ["file", "files"],
};
// Attachment names are read only this far: a title shows a few dozen characters of them at most.
const NAME_READ_LIMIT = 1024;

type Shown = { name: string | null; kind: AttachmentKind };

function shown(a: AttachmentInfo): Shown {
  const kind = KIND_ORDER.includes(a?.kind) ? a.kind : "file";
  const raw = typeof a?.name === "string" ? sanitizeTitleText(a.name.slice(0, NAME_READ_LIMIT)) : "";
  return { name: raw === "" || raw === UNNAMED[kind] ? null : raw, kind };
}

const counted = (n: number, kind: AttachmentKind) => `${n} ${NOUNS[kind][n === 1 ? 0 : 1]}`;

/**
 * A title for a message of attachments only. The first named file leads (a document says more than
 * a picture, so a named non-image wins over a named image); the rest are counted by kind, or named
 * when there is exactly one other: "report.pdf + 2 images", "report.pdf + notes.txt", "3 images".
 */
export function attachmentsTitle(attachments: readonly AttachmentInfo[] | null | undefined, config: CutConfig = DEFAULT_TITLE_CONFIG): string | null {
  const all = (Array.isArray(attachments) ? attachments : []).map(shown);
  if (all.length === 0) return null;
  let leadAt = all.findIndex((a) => a.name !== null && a.kind !== "image");
  if (leadAt < 0) leadAt = all.findIndex((a) => a.name !== null);
  const rest = all.filter((_, i) => i !== leadAt);
  const parts: string[] = leadAt < 0 ? [] : [all[leadAt].name ?? ""];
  if (leadAt >= 0 && rest.length === 1 && rest[0].name !== null) parts.push(rest[0].name);
  else
    for (const kind of KIND_ORDER) {
      const n = rest.filter((a) => a.kind === kind).length;
      if (n > 0) parts.push(counted(n, kind));
    }
  // File names are not Markdown: "__init__.py" must stay as it is.
  return cutTitle(parts.join(" + "), config, sanitizedView);
}

/** The instant title of a first message: its text when there is any, else its attachments. */
export function fallbackTitleFor(
  message: { text: string; attachments?: readonly AttachmentInfo[] | null },
  config: CutConfig = DEFAULT_TITLE_CONFIG,
): string {
  const text = typeof message?.text === "string" ? message.text : "";
  return cutTitle(text, config, plainTextPrefix) ?? attachmentsTitle(message?.attachments, config) ?? EMPTY_TITLE;
}
