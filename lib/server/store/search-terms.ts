/**
 * The title index's side of title search (lib/title/search-words.ts has the words): the index
 * holds, per title revision, its space-separated folded terms, and its tokenizer splits on spaces
 * only, so a term is exactly one index token; a query becomes prefix terms, ANDed.
 */
import { queryWords } from "@/lib/title/search-words";

/**
 * Bumped when titleTerms, the folding or the index's tokenizer changes: start-up then rebuilds the
 * index. 3: SQLite stores the terms folded here too (as Postgres does) and FTS5 only splits them.
 * 4: unspaced scripts are indexed from every character (search-words.ts, GRAM); ß, ı, ø…, Arabic and Hebrew vowel
 * marks and typographic apostrophes fold. 5: a word's rest after each punctuation run
 * (`foo.ts` in `src/lib/foo.ts`) and an Arabic word without its article are terms too. 6: the
 * same, mended: rests after any punctuation (`@` too), at most 16 a word, and the article found
 * on folded terms (words with short vowels), also after a one-letter word. 7: Latin (any spaced
 * script) runs inside unspaced text are words of their own (Kubernetes in 部署Kubernetes集群), and
 * Greek's final sigma folds to σ.
 * search-terms.test.ts holds it beside a digest of the terms of a set of titles, so a rule changed
 * without it fails there.
 */
export const SEARCH_INDEX_VERSION = 7;

/**
 * FTS5's `ascii` tokenizer with every printable ASCII symbol as a token character: the stored terms
 * are folded already (foldTerm, no controls, no spaces inside a term), so a space is the only
 * separator it meets and its own folding (A-Z only) has nothing left to do. A token is therefore
 * exactly one stored term, which is what lets the broad plan test a row with `instr` on the same
 * text (search-sql.ts) and get the answer the index gives.
 */
export const SEARCH_TOKENIZER = `ascii tokenchars '!"#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~'`;

/**
 * `$title_search` text → an FTS5 query that cannot be malformed: each folded word becomes a quoted
 * prefix term; words are ANDed. Quoting makes every character literal, so FTS syntax in the text
 * is inert. Null when nothing searchable remains.
 */
export function ftsQuery(text: string): string | null {
  const words = queryWords(text);
  return words.length ? words.map((w) => `"${w.replaceAll('"', '""')}"*`).join(" ") : null;
}

/**
 * `$title_search` text → a Postgres tsquery with the FTS5 query's meaning: each word a quoted
 * prefix lexeme (`'c++':*`, quotes and backslashes doubled, so no tsquery syntax in the text is
 * live), words ANDed. Null when nothing searchable remains.
 */
export function tsQuery(text: string): string | null {
  const words = queryWords(text);
  return words.length ? words.map((w) => `'${w.replaceAll("\\", "\\\\").replaceAll("'", "''")}':*`).join(" & ") : null;
}
