/**
 * Title search words, computed here rather than by FTS5's tokenizer: unicode61 splits on every
 * symbol and punctuation mark, so `C++`, `C#` and emoji were dropped. The index holds, per title,
 * space-separated terms, and its tokenizer splits on spaces only (case and diacritic folding stay
 * FTS5's), so a term is exactly one index token.
 */

const SPACES = /[\s\p{Z}]+/u;
/** Runs of letters/digits (with their marks): what plain-word search matched before. */
const PLAIN_WORD = /[\p{L}\p{N}_][\p{L}\p{N}\p{M}_]*/gu;
// `#` and `@` are part of names (C#, #42, @team); other punctuation at a word's edge is prose ("tips," "(C++)").
const LEADING_PUNCT = /^(?:(?![#@])\p{P})+/u;
const TRAILING_PUNCT = /(?:(?!#)\p{P})+$/u;
const INNER_PUNCT = /(?:(?![#@&])\p{P})+/u;

/** The longest search word of one space-separated chunk: edge punctuation trimmed, symbols kept. */
function trimWord(chunk: string): string {
  return chunk.replace(LEADING_PUNCT, "").replace(TRAILING_PUNCT, "");
}

const chunksOf = (text: string) => text.normalize("NFKC").split(SPACES).filter(Boolean);

/**
 * Every term a title is found by: each word as written (`c++`, `🏳️‍🌈`, `c#/f#`), its pieces
 * between punctuation (`c#`, `f#`) and its plain letter/digit runs (`c`, `f`), so a prefix of
 * any of them matches.
 */
export function titleTerms(title: string): string {
  const terms = new Set<string>();
  for (const chunk of chunksOf(title)) {
    const word = trimWord(chunk);
    if (word) terms.add(word);
    for (const piece of word.split(INNER_PUNCT)) {
      const p = trimWord(piece);
      if (p) terms.add(p);
    }
    for (const plain of word.match(PLAIN_WORD) ?? []) terms.add(plain);
  }
  return [...terms].join(" ");
}

/** At most this many words of a query are used (each one is an AND). */
const MAX_QUERY_WORDS = 16;
/** Titles are at most 200 characters; a longer query cannot match and would only cost time. */
const MAX_QUERY_CHARS = 1000;

/**
 * `$title_search` text → an FTS5 query that cannot be malformed: each space-separated word,
 * edge punctuation trimmed, becomes a quoted prefix term; words are ANDed. Quoting makes every
 * character literal, so FTS syntax in the text is inert. Null when nothing searchable remains.
 */
export function ftsQuery(text: string): string | null {
  const words = chunksOf(text.slice(0, MAX_QUERY_CHARS)).map(trimWord).filter(Boolean);
  if (!words.length) return null;
  return words.slice(0, MAX_QUERY_WORDS).map((w) => `"${w.replaceAll('"', '""')}"*`).join(" ");
}

/** Bumped when titleTerms or the index's tokenizer changes: start-up then rebuilds the index. */
export const SEARCH_INDEX_VERSION = 2;

/** Every character but spaces is part of a token; titleTerms decides what a word is. */
export const SEARCH_TOKENIZER = `unicode61 remove_diacritics 2 categories 'L* N* M* S* P* C*'`;

/**
 * Case and (Latin) diacritic folding as FTS5's unicode61 `remove_diacritics 2` does it, for the
 * Postgres index, which takes the terms as they are (its parser would split `c++` and drop emoji).
 */
export function foldTerm(term: string): string {
  return term.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC").toLowerCase();
}

/** The terms stored per revision: SQLite's FTS5 folds them itself; Postgres gets them folded. */
export function searchTerms(dialect: "sqlite" | "postgres", title: string): string {
  const terms = titleTerms(title);
  return dialect === "sqlite" ? terms : terms.split(" ").map(foldTerm).filter(Boolean).join(" ");
}

/**
 * `$title_search` text → a Postgres tsquery with the FTS5 query's meaning: each word a quoted
 * prefix lexeme (`'c++':*`, quotes and backslashes doubled, so no tsquery syntax in the text is
 * live), words ANDed. Null when nothing searchable remains.
 */
export function tsQuery(text: string): string | null {
  const words = chunksOf(text.slice(0, MAX_QUERY_CHARS)).map(trimWord).map(foldTerm).filter(Boolean);
  if (!words.length) return null;
  return words
    .slice(0, MAX_QUERY_WORDS)
    .map((w) => `'${w.replaceAll("\\", "\\\\").replaceAll("'", "''")}':*`)
    .join(" & ");
}
