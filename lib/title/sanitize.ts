// One left-to-right scanner (the way a terminal reads bytes) rather than a chain of regexes:
// it can stop early, so a 1 MB message costs only the prefix a title needs, and the early-stopped
// output is by construction a prefix of the full result.

const ESC = 0x1b;
const BEL = 0x07;
const C1_ST = 0x9c;
const C1_CSI = 0x9b;
const C1_OSC = 0x9d;

// Bidi overrides/isolates, zero-width and invisible operators can make a title read as something
// it is not. ZWJ/ZWNJ stay: emoji sequences and several scripts need them. U+061C (Arabic letter
// mark) is a bidi mark like U+200E/F, so it goes too; so do the blank "letters" (Hangul fillers),
// the soft hyphen, the combining grapheme joiner and the Mongolian vowel separator.
function isInvisible(c: number): boolean {
  return (
    c === 0x00ad ||
    c === 0x034f ||
    c === 0x115f ||
    c === 0x1160 ||
    c === 0x180e ||
    c === 0x3164 ||
    c === 0xffa0 ||
    c === 0x200b ||
    c === 0x200e ||
    c === 0x200f ||
    c === 0x061c ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2060 && c <= 0x2064) ||
    (c >= 0x2066 && c <= 0x206f) ||
    c === 0xfeff
  );
}

// Unicode White_Space (what JS `\s` knows, minus U+FEFF) plus the whitespace controls and NEL.
function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

function isLineBreak(c: number): boolean {
  return (c >= 0x0a && c <= 0x0d) || c === 0x85 || c === 0x2028 || c === 0x2029;
}

function isControl(c: number): boolean {
  return c <= 0x1f || (c >= 0x7f && c <= 0x9f);
}

const LEADING_MARKS = /^\p{M}+/u;

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** Index just past an OSC body starting at `i`: BEL, ESC \ or 8-bit ST end it; otherwise it runs to the end. */
function skipOsc(s: string, i: number): number {
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === BEL || c === C1_ST) return i + 1;
    if (c === ESC && s.charCodeAt(i + 1) === 0x5c) return i + 2;
  }
  return s.length;
}

/** Index just past a CSI body starting at `i`, or -1 when it has no valid final byte. */
function matchCsi(s: string, i: number): number {
  while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x3f) i++;
  while (i < s.length && s.charCodeAt(i) >= 0x20 && s.charCodeAt(i) <= 0x2f) i++;
  const c = s.charCodeAt(i);
  return c >= 0x40 && c <= 0x7e ? i + 1 : -1;
}

function codePointLength(s: string, i: number): number {
  return i + 1 < s.length && isHigh(s.charCodeAt(i)) && isLow(s.charCodeAt(i + 1)) ? 2 : 1;
}

export type SanitizedPrefix = { text: string; complete: boolean };

/**
 * Sanitises `s` until at least `budget` UTF-16 units of output exist. `complete` says the whole input
 * was read, i.e. `text` equals sanitizeTitleText(s); otherwise `text` is a prefix of it.
 * With keepLineBreaks, a whitespace run holding a line break becomes one "\n" instead of a space
 * (Markdown needs its lines).
 */
export function sanitizePrefix(s: string, budget: number, keepLineBreaks = false): SanitizedPrefix {
  let out = "";
  let pendingSpace = false;
  let pendingBreak = false;
  let runStart = -1;
  const flush = (end: number) => {
    if (runStart >= 0) out += s.slice(runStart, end);
    runStart = -1;
  };
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === ESC || c === C1_CSI || c === C1_OSC) {
      flush(i);
      const bodyStart = c === ESC ? i + 2 : i + 1;
      const kind = c === ESC ? s.charCodeAt(i + 1) : c === C1_OSC ? 0x5d : 0x5b;
      const csiEnd = kind === 0x5b ? matchCsi(s, bodyStart) : -1;
      if (kind === 0x5d) i = skipOsc(s, bodyStart);
      else if (csiEnd >= 0) i = csiEnd;
      // Any other escape consumes exactly one following character (ESC c, ESC 7, a broken "ESC [").
      // A second ESC is not swallowed: like a terminal, it starts the next sequence.
      else if (c === ESC) i = i + 1 < s.length && kind !== ESC ? i + 1 + codePointLength(s, i + 1) : i + 1;
      else i += 1;
      continue;
    }
    if (isSpace(c)) {
      flush(i);
      if (keepLineBreaks && isLineBreak(c)) pendingBreak = true;
      else pendingSpace = true;
      i++;
      continue;
    }
    const width = codePointLength(s, i);
    if (isControl(c) || isInvisible(c) || (width === 1 && (isHigh(c) || isLow(c)))) {
      // Lone surrogates are dropped too: they cannot be encoded as UTF-8 and would corrupt storage.
      flush(i);
      i++;
      continue;
    }
    if (runStart < 0 && out === "" && LEADING_MARKS.test(s.slice(i, i + width))) {
      // A mark with nothing before it to sit on (the text's first character) would sit on
      // whatever the page shows before the title.
      i += width;
      continue;
    }
    if (runStart < 0) {
      if ((pendingSpace || pendingBreak) && out !== "") out += pendingBreak ? "\n" : " ";
      pendingSpace = false;
      pendingBreak = false;
      runStart = i;
    }
    i += width;
    if (out.length + (i - runStart) >= budget) {
      flush(i);
      return { text: out, complete: i >= s.length };
    }
  }
  flush(s.length);
  return { text: out, complete: true };
}

/**
 * Removes terminal escape sequences, control and invisible/bidi characters, collapses every
 * whitespace run to one space and trims — so a title cannot be spoofed or reorder its neighbours.
 */
export function sanitizeTitleText(s: string): string {
  return sanitizePrefix(s, Infinity).text;
}

/**
 * `s` without the combining marks it starts with. sanitizePrefix drops them at the text's start;
 * a title's later clean-up (Markdown, a "Title:" label, quotes) can leave others at the front.
 */
export function dropLeadingMarks(s: string): string {
  return s.replace(LEADING_MARKS, "");
}

/** Joiners, selectors, tag characters and marks: what shows nothing without a character to join or mark. */
const SHOWS_NOTHING_ALONE = /^[\u200c\u200d\ufe00-\ufe0f\u{e0000}-\u{e007f}\p{M}\s]*$/u;

/** A title with nothing to see (only joiners, variation selectors, tags or stray marks) is no title. */
export function showsNothing(title: string): boolean {
  return SHOWS_NOTHING_ALONE.test(title);
}
