// Deterministic PRNG so fuzz failures reproduce.
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces chosen to hit every sanitiser branch and every hard grapheme rule.
export const TRICKY_PIECES = [
  "a", "B", "字", " ", "  ", "\n", "\t", "\u00a0", "\u3000", "\u2003",
  "\u200b", "\u200d", "\u200c", "\u202e", "\u2066", "\ufeff", "\u0301", "\u0308",
  "👨‍👩‍👧‍👦", "👍🏽", "🇯", "🇵", "🇯🇵", "\u1100", "\u1161", "\u11a8", "ก", "\u0e33",
  "\u001b", "\u001b[31m", "\u001b[0m", "\u001b]8;;http://x\u001b\\", "\u001b]0;t\u0007", "\u009b1m", "\u009d",
  "\u0007", "\u009c", "\u0000", "\u007f", "\u0085", "[", "]", "\\", ".", "\ud800", "\udc00", "😀",
];

export function randomText(next: () => number, pieces: number): string {
  let s = "";
  for (let i = 0; i < pieces; i++) s += TRICKY_PIECES[Math.floor(next() * TRICKY_PIECES.length)];
  return s;
}
