// `\b` keeps <thinking> and <thinker> out; attributes and spaces inside the tag are tolerated.
// The attribute run is bounded so "<think<think<think…" without ">" cannot make the regex quadratic.
const OPEN = /<think\b[^<>]{0,200}>/gi;
const CLOSE = /<\/think\s*>/gi;

type Match = { index: number; end: number; selfClosing: boolean } | null;

function find(re: RegExp, s: string, from: number): Match {
  re.lastIndex = from;
  const m = re.exec(s);
  return m && { index: m.index, end: m.index + m[0].length, selfClosing: m[0].endsWith("/>") };
}

/**
 * Removes reasoning blocks from model output. Closed blocks are cut out; an unclosed <think> hides
 * everything after it (the model never finished thinking). A stray </think> with no opener — what
 * models emit when the chat template already injected the <think> — hides everything before it.
 */
export function stripThinkTags(s: string): string {
  let out = "";
  let pos = 0;
  // Each search resumes only once the previous hit is behind `pos`, so the whole pass stays linear.
  let open = find(OPEN, s, 0);
  let close = find(CLOSE, s, 0);
  for (;;) {
    if (open && open.index < pos) open = find(OPEN, s, pos);
    if (close && close.index < pos) close = find(CLOSE, s, pos);
    if (close && (!open || close.index < open.index)) {
      out = "";
      pos = close.end;
      continue;
    }
    if (!open) return out + s.slice(pos);
    out += s.slice(pos, open.index);
    pos = open.end;
    if (open.selfClosing) continue;
    if (close && close.index < pos) close = find(CLOSE, s, pos);
    if (!close) return out;
    pos = close.end;
  }
}
