export type TitleSourceKind = "fallback" | "model" | "user";
export type TitleSource = { kind: TitleSourceKind; model?: string };
export type TitleFact = { title: string | null; source: TitleSource | null };
export type TitleDecision = { accept: boolean; reason: string };

const RANK: Record<TitleSourceKind, number> = { fallback: 1, model: 2, user: 3 };

// A title stored before provenance existed has no source; anything automatic may improve on it.
const rankOf = (source: TitleSource | null): number => (source ? (RANK[source.kind] ?? 0) : 0);

const hasTitle = (t: string | null | undefined): t is string => typeof t === "string" && t.trim() !== "";

/** The single rule every title writer goes through: fallback < model < user; user titles are pinned. */
export function decideTitle(
  current: TitleFact,
  proposed: { title: string; source: TitleSource },
  opts: { regenerate?: boolean } = {},
): TitleDecision {
  if (!hasTitle(proposed.title)) return { accept: false, reason: "proposed title is empty" };
  if (proposed.source.kind === "user") return { accept: true, reason: "a user rename always wins" };
  const regenerate = opts.regenerate === true;
  if (current.source?.kind === "user") {
    return regenerate
      ? { accept: true, reason: "regenerate replaces the user title" }
      : { accept: false, reason: "the user title is pinned" };
  }
  if (regenerate) return { accept: true, reason: "regenerate requested" };
  if (!hasTitle(current.title)) return { accept: true, reason: "no current title" };
  const have = rankOf(current.source);
  const want = RANK[proposed.source.kind];
  return want >= have
    ? { accept: true, reason: `${proposed.source.kind} title may replace ${current.source?.kind ?? "untracked"} title` }
    : { accept: false, reason: `${proposed.source.kind} title may not replace ${current.source?.kind} title` };
}
