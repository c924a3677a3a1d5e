import { leadingSanitizedGraphemes } from "./graphemes";
import { showsNothing } from "./sanitize";

export const USER_TITLE_MAX_CHARS = 200;

export type UserTitleResult = { ok: true; title: string } | { ok: false; message: string };

/** Says which kind of character was past CLUSTER_MAX_UNITS: emoji joined into one, or a letter under marks. */
function tooLongCharacter(clamped: string): string {
  return clamped.includes("\u200d") ? "Title has too many emoji joined into one character" : "Title has a character with too many accents or marks on it";
}

/** Validates a rename. Rejects rather than truncates: silently cutting what the user typed is worse. */
export function normalizeUserTitle(raw: unknown): UserTitleResult {
  if (typeof raw !== "string") return { ok: false, message: "Title must be a string" };
  const { graphemes, more, clamped } = leadingSanitizedGraphemes(raw, USER_TITLE_MAX_CHARS);
  if (more) return { ok: false, message: `Title must be at most ${USER_TITLE_MAX_CHARS} characters` };
  if (clamped !== null) return { ok: false, message: tooLongCharacter(clamped) };
  const title = graphemes.join("");
  if (showsNothing(title)) return { ok: false, message: "Title must not be empty" };
  return { ok: true, title };
}
