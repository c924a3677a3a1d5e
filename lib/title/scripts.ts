// Which writing system a text is in, for checking that a title is in the user's language.

export type ScriptGroup =
  | "Latin"
  | "Cyrillic"
  | "Greek"
  | "Armenian"
  | "Georgian"
  | "Arabic"
  | "Hebrew"
  | "Devanagari"
  | "Bengali"
  | "Tamil"
  | "Thai"
  | "Hangul"
  | "CJK";

// A Han or Hangul character carries about what a short word does; counting it as one letter would
// let a couple of English identifiers outvote a whole Chinese sentence.
const GROUPS: ReadonlyArray<{ group: ScriptGroup; re: RegExp; weight: number }> = [
  { group: "Latin", re: /\p{Script=Latin}/gu, weight: 1 },
  { group: "Cyrillic", re: /\p{Script=Cyrillic}/gu, weight: 1 },
  { group: "Greek", re: /\p{Script=Greek}/gu, weight: 1 },
  { group: "Armenian", re: /\p{Script=Armenian}/gu, weight: 1 },
  { group: "Georgian", re: /\p{Script=Georgian}/gu, weight: 1 },
  { group: "Arabic", re: /\p{Script=Arabic}/gu, weight: 1 },
  { group: "Hebrew", re: /\p{Script=Hebrew}/gu, weight: 1 },
  { group: "Devanagari", re: /\p{Script=Devanagari}/gu, weight: 1 },
  { group: "Bengali", re: /\p{Script=Bengali}/gu, weight: 1 },
  { group: "Tamil", re: /\p{Script=Tamil}/gu, weight: 1 },
  { group: "Thai", re: /\p{Script=Thai}/gu, weight: 1 },
  { group: "Hangul", re: /\p{Script=Hangul}/gu, weight: 2 },
  // Japanese mixes kanji and kana freely, so a kana question may get an all-kanji title.
  { group: "CJK", re: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu, weight: 2 },
];

// Only letters say something about the language; digits and symbols of a script (e.g. "٣") do not.
const LETTER_ONLY = /\p{L}|\p{M}/u;

// URLs and code are Latin whatever language the user writes in.
const NOT_PROSE = /```[\s\S]*?(?:```|$)|`[^`\n]*`|\b(?:https?|ftp):\/\/\S+|\bwww\.\S+/gi;

// The user's language shows in the first lines; counting further only costs time.
const SAMPLE = 2000;
// Below this weight (a lone "x", "ok") the text says too little to insist on a script.
const MIN_WEIGHT = 2;
// A script with less than this share of the text is a borrowed word, not the user's language.
const MIN_SHARE = 0.3;
// Latin needs more: code, product names and units are Latin inside text of any language.
const MIN_LATIN_SHARE = 0.5;

function weights(text: string): Map<ScriptGroup, number> {
  const out = new Map<ScriptGroup, number>();
  for (const { group, re, weight } of GROUPS) {
    let n = 0;
    for (const m of text.matchAll(re)) if (LETTER_ONLY.test(m[0])) n++;
    if (n > 0) out.set(group, n * weight);
  }
  return out;
}

export type UserScripts = { dominant: ScriptGroup; accepted: ReadonlySet<ScriptGroup> } | null;

/** The script groups a title may be written in for this user text; null when the text shows none. */
export function userScripts(text: string): UserScripts {
  const w = weights(text.slice(0, SAMPLE).replace(NOT_PROSE, " "));
  const total = [...w.values()].reduce((a, b) => a + b, 0);
  if (total < MIN_WEIGHT) return null;
  const ranked = [...w.entries()].sort((a, b) => b[1] - a[1]);
  const dominant = ranked[0][0];
  const accepted = new Set(
    ranked.filter(([g, n]) => g === dominant || n / total >= (g === "Latin" ? MIN_LATIN_SHARE : MIN_SHARE)).map(([g]) => g),
  );
  return { dominant, accepted };
}

/** The script groups present in `text`, most used first. */
export function scriptsOf(text: string): ScriptGroup[] {
  return [...weights(text).entries()].sort((a, b) => b[1] - a[1]).map(([g]) => g);
}

/**
 * Scripts written without spaces between words, as the body of a regex character class: the
 * fallback cut, title search and Markdown emphasis each treat their text as one run of letters.
 */
export const UNSPACED_SCRIPTS = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}`;
