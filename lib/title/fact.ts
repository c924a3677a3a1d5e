import type { TitleFact, TitleSource } from "./precedence";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const SOURCE_KINDS = new Set(["fallback", "model", "user"]);

/** Reads a `title_source` value defensively (an object, or the JSON text of one). */
export function parseTitleSource(raw: unknown): TitleSource | null {
  let v = raw;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (!isObj(v) || typeof v.kind !== "string" || !SOURCE_KINDS.has(v.kind)) return null;
  const source: TitleSource = { kind: v.kind as TitleSource["kind"] };
  if (typeof v.model === "string" && v.model) source.model = v.model;
  return source;
}

/** A title fact from any object carrying `title` / `title_source` (state values, `extracted`, responses). */
export function titleFactOf(holder: unknown): TitleFact {
  if (!isObj(holder)) return { title: null, source: null };
  const title = typeof holder.title === "string" && holder.title.trim() !== "" ? holder.title : null;
  return { title, source: title ? parseTitleSource(holder.title_source) : null };
}

/** Same title with the same provenance (key order and an absent vs undefined model don't matter). */
export function sameTitleFact(a: TitleFact, b: TitleFact): boolean {
  return a.title === b.title && a.source?.kind === b.source?.kind && (a.source?.model ?? null) === (b.source?.model ?? null);
}
