/**
 * Title search's words: what a title is found by and how a query is read, one rule for the
 * server's index (lib/server/store/search-terms.ts: SQLite FTS5 and Postgres tsvector hold these
 * terms), its scan of a LangGraph server, and the sidebar, which tells a row found by an earlier
 * title. Computed here rather than by FTS5's tokenizer: unicode61 splits on every symbol and
 * punctuation mark, so `C++`, `C#` and emoji were dropped.
 */

import { graphemesOf } from "./graphemes";
import { UNSPACED_SCRIPTS } from "./scripts";

const SPACES = /[\s\p{Z}]+/u;
/** Runs of letters/digits (with their marks): what plain-word search matched before. */
const PLAIN_WORD = /[\p{L}\p{N}_][\p{L}\p{N}\p{M}_]*/gu;
// `#` and `@` are part of names (C#, #42, @team); other punctuation at a word's edge is prose ("tips," "(C++)").
const LEADING_PUNCT = /^(?:(?![#@])\p{P})+/u;
const TRAILING_PUNCT = /(?:(?!#)\p{P})+$/u;
const INNER_PUNCT = /(?:(?![#@&])\p{P})+/u;
/** Where a word's rest starts: after any punctuation run (`me@example.com` → `example.com`). */
const ANY_PUNCT = /\p{P}+/gu;
/** A word of many punctuation runs keeps the rests after its first and last few: terms stay linear in the title. */
const TAILS_KEPT = 8;

/** The longest search word of one space-separated chunk: edge punctuation trimmed, symbols kept. */
function trimWord(chunk: string): string {
  return chunk.replace(LEADING_PUNCT, "").replace(TRAILING_PUNCT, "");
}

const chunksOf = (text: string) => text.normalize("NFKC").split(SPACES).filter(Boolean);

/** Scripts written without spaces between words: a chunk of them is a phrase, not one word. */
const UNSPACED = new RegExp(`[${UNSPACED_SCRIPTS}]`, "u");
// A fixed locale; how a run splits into words still depends on the ICU of the server or browser,
// which only decides how a query of more than GRAM unspaced characters is read.
const wordSegmenter = new Intl.Segmenter("en", { granularity: "word" });
/**
 * Unspaced text is found from any of its characters: the index holds, from each one, the next
 * GRAM graphemes (机器学习的 → 机器学习的, 器学习的, 学习的, 习的, 的), so any run of up to GRAM
 * characters is a prefix of a term. A longer query run is read as its dictionary words.
 */
const GRAM = 8;

function grams(chunk: string): string[] {
  if (!UNSPACED.test(chunk)) return [];
  const g = graphemesOf(chunk);
  return g.map((_, i) => g.slice(i, i + GRAM).join(""));
}

const UNSPACED_RUN = new RegExp(`[${UNSPACED_SCRIPTS}]+`, "u");

/**
 * The spaced-script runs between unspaced text (`Kubernetes` in 如何部署Kubernetes集群): words of
 * their own, found whole; the grams alone reach only their first GRAM characters.
 */
function spacedRuns(chunk: string): string[] {
  return UNSPACED.test(chunk) ? chunk.split(UNSPACED_RUN).filter(Boolean) : [];
}

/** A query chunk: whole when short; unspaced text past GRAM graphemes as its words (each cut to GRAM). */
function queryParts(chunk: string): string[] {
  if (!UNSPACED.test(chunk) || graphemesOf(chunk).length <= GRAM) return [chunk];
  const words = Array.from(wordSegmenter.segment(chunk))
    .filter((s) => s.isWordLike)
    .map((s) => graphemesOf(s.segment).slice(0, GRAM).join(""));
  // No dictionary word in it (a run of symbols): its start, as a shorter query would be read.
  return words.length ? words : [graphemesOf(chunk).slice(0, GRAM).join("")];
}

/**
 * The longest term, in UTF-8 bytes: Postgres keeps a lexeme's length in 11 bits (2,047 bytes) and
 * wraps a longer one silently, so a 100-emoji word would not be found there. Terms and query
 * words are cut alike, at a grapheme, so a query still finds a term it begins.
 */
const TERM_MAX_BYTES = 1000;
const utf8 = new TextEncoder();

function capTerm(term: string): string {
  if (term.length * 3 <= TERM_MAX_BYTES) return term;
  let bytes = 0;
  let out = "";
  for (const g of graphemesOf(term)) {
    bytes += utf8.encode(g).length;
    if (bytes > TERM_MAX_BYTES) break;
    out += g;
  }
  return out;
}

/** A word's rest after its punctuation runs (`src/lib/foo.ts` → `lib/foo.ts`, `foo.ts`, `ts`). */
function tails(word: string): string[] {
  const all = Array.from(word.matchAll(ANY_PUNCT), (m) => trimWord(word.slice(m.index + m[0].length)));
  return all.length > 2 * TAILS_KEPT ? [...all.slice(0, TAILS_KEPT), ...all.slice(-TAILS_KEPT)] : all;
}

/**
 * Arabic writes the article, and a one-letter word before it, joined to the next word (الكتاب
 * "the book", والكتاب "and the book", للطلاب "for the students"): the word without them is a term
 * too, and without the one letter, when two letters or more are left. Read on folded terms, so
 * the short vowels are gone. A word that only looks so (الله, التي) gains a term that is not a
 * word; a search for that term is the only one that finds it there.
 */
const ARABIC_ARTICLE = /^([وفبك]?)(?:ال|لل)(?=\p{Script=Arabic}{2})/u;

function withoutArticle(term: string): string[] {
  const m = ARABIC_ARTICLE.exec(term);
  if (!m) return [];
  return m[1] ? [term.slice(m[0].length), term.slice(m[1].length)] : [term.slice(m[0].length)];
}

/**
 * Every term a title is found by: each word as written (`c++`, `🏳️‍🌈`, `c#/f#`), its pieces
 * between punctuation (`c#`, `f#`), its rest after each punctuation run (`foo.ts` in
 * `src/lib/foo.ts`), its plain letter/digit runs (`c`, `f`) and unspaced text from each
 * character (grams), so a prefix of any of them matches; searchTerms adds Arabic words without
 * their article.
 */
export function titleTerms(title: string): string {
  const terms = new Set<string>();
  const add = (term: string) => {
    if (term) terms.add(term);
  };
  for (const chunk of chunksOf(title)) {
    const word = trimWord(chunk);
    add(word);
    for (const piece of word.split(INNER_PUNCT)) add(trimWord(piece));
    for (const tail of tails(word)) add(tail);
    for (const plain of word.match(PLAIN_WORD) ?? []) add(plain);
    for (const gram of grams(word)) add(gram);
    for (const run of spacedRuns(word)) {
      add(trimWord(run));
      for (const plain of run.match(PLAIN_WORD) ?? []) add(plain);
    }
  }
  return [...terms].join(" ");
}

/** The longest `$title_search` the API takes, in UTF-16 units (a title is at most 200 characters). */
export const TITLE_SEARCH_MAX = 500;

/** A search box's text as the API takes it: trimmed, and cut to TITLE_SEARCH_MAX between graphemes. */
export function clampTitleSearch(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= TITLE_SEARCH_MAX) return trimmed;
  let out = "";
  for (const g of graphemesOf(trimmed)) {
    if (out.length + g.length > TITLE_SEARCH_MAX) break;
    out += g;
  }
  return out.trim();
}

/** At most this many words of a query are used (each one is an AND). */
const MAX_QUERY_WORDS = 16;
/** Titles are at most 200 characters; a longer query cannot match and would only cost time. */
const MAX_QUERY_CHARS = 1000;

/**
 * Case and (Latin) diacritic folding, in JS for both dialects so the index, the query and the
 * broad plan's per-row test fold alike; control characters and lone surrogates are dropped (titles
 * are sanitised of both already; a stray control would split a term in one place and not another,
 * and a lone surrogate in a query reached SQLite as a character that matched every title).
 */
export function foldTerm(term: string): string {
  return term
    .normalize("NFD")
    .replace(DROPPED_MARKS, "")
    .normalize("NFC")
    .toLowerCase()
    // Greek's final sigma is σ at a word's end: a query ending where a word goes on (ΑΣ for
    // Αστρονομία) must not read as one.
    .replace(/ς/g, "σ")
    .replace(LATIN_LETTERS, (c) => LATIN_FOLD[c])
    .replace(APOSTROPHES, "'")
    .replace(/[\p{Cc}\p{Cs}]/gu, "");
}

/**
 * Marks a searcher leaves out: Latin accents, Arabic short vowels (harakat) and Hebrew points
 * (niqqud, cantillation; not maqaf or sof pasuq, which are punctuation).
 */
const DROPPED_MARKS = /[\u0300-\u036f\u064b-\u065f\u0670\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7]/g;
/** Latin letters that are not a letter plus an accent, as people type them without their keyboard. */
const LATIN_FOLD: Record<string, string> = { ı: "i", ß: "ss", đ: "d", ð: "d", ø: "o", æ: "ae", œ: "oe", ł: "l", ħ: "h", ŧ: "t", ſ: "s", þ: "th" };
const LATIN_LETTERS = new RegExp(`[${Object.keys(LATIN_FOLD).join("")}]`, "g");
/** Typographic apostrophes (what phones and Macs type) are the ASCII one. */
const APOSTROPHES = /[\u2018\u2019\u02bc\u2032]/g;

/** The terms stored per revision, folded, space-separated (the same on both dialects). */
export function searchTerms(title: string): string {
  const folded = titleTerms(title).split(" ").map(foldTerm);
  // Folding can put punctuation at a word's edge (ŉ is ʼn, and ʼ folds to '), which a query's
  // words never keep: the word without it is a term too.
  return [...new Set(folded.flatMap((t) => [t, trimWord(t), ...withoutArticle(t)]).map(capTerm).filter(Boolean))].join(" ");
}

/** The folded, trimmed words of a `$title_search` (at most MAX_QUERY_WORDS; each one an AND). */
export function queryWords(text: string): string[] {
  return chunksOf(text.slice(0, MAX_QUERY_CHARS))
    .map(trimWord)
    .flatMap(queryParts)
    .map(foldTerm)
    .map(capTerm)
    .filter((w, i, all) => w !== "" && all.indexOf(w) === i)
    .slice(0, MAX_QUERY_WORDS);
}

/**
 * Does this title match these query words (queryWords)? Each word must be a prefix of one of the
 * title's terms: the index's answer, reached in JS, for a server that has no index of ours (the
 * forwarder's scan of a LangGraph server, lib/server/remote/title-scan.ts). No words, no match.
 */
export function titleMatches(title: string, words: readonly string[]): boolean {
  if (!words.length) return false;
  // Terms hold no space, so " word" occurs exactly where a term starts with word (as search-sql's instr).
  const terms = ` ${searchTerms(title)}`;
  return words.every((w) => terms.includes(` ${w}`));
}

