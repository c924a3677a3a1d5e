import { type AttachmentInfo, type AttachmentKind, UNNAMED } from "./attachments";
import type { TitleConfig } from "./config";
import { DEFAULT_TITLE_CONFIG } from "./config";
import { leadingSanitizedGraphemes } from "./graphemes";
import { sanitizeTitleText } from "./sanitize";

export const EMPTY_TITLE = "New Conversation";

// Fallback titles stay short even when max_chars allows a long model title.
const FALLBACK_LIMIT = 50;
const ELLIPSIS = "...";

type CutConfig = Pick<TitleConfig, "max_chars">;

/** Sanitised `text` within the fallback length rule, or null when nothing visible is left. */
function cutTitle(text: string, config: CutConfig): string | null {
  const limit = Math.min(config.max_chars, FALLBACK_LIMIT);
  const keep = Math.max(0, Math.min(limit, config.max_chars - ELLIPSIS.length));
  const { graphemes, more } = leadingSanitizedGraphemes(text, limit);
  if (more) return graphemes.slice(0, keep).join("").trimEnd() + ELLIPSIS;
  const whole = graphemes.join("");
  return whole === "" ? null : whole;
}

/**
 * Instant title from the user's text (the browser shows it before the server answers, so it must be
 * deterministic and cheap). Cuts on grapheme boundaries and appends "..." when the text is too long.
 */
export function fallbackTitle(text: string, config: CutConfig = DEFAULT_TITLE_CONFIG): string {
  return cutTitle(typeof text === "string" ? text : "", config) ?? EMPTY_TITLE;
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
  return cutTitle(parts.join(" + "), config);
}

/** The instant title of a first message: its text when there is any, else its attachments. */
export function fallbackTitleFor(
  message: { text: string; attachments?: readonly AttachmentInfo[] | null },
  config: CutConfig = DEFAULT_TITLE_CONFIG,
): string {
  const text = typeof message?.text === "string" ? message.text : "";
  return cutTitle(text, config) ?? attachmentsTitle(message?.attachments, config) ?? EMPTY_TITLE;
}
