import { sameTitleFact } from "./fact";

export type TitleSourceKind = "fallback" | "model" | "user";
export type TitleSource = { kind: TitleSourceKind; model?: string };
export type TitleFact = { title: string | null; source: TitleSource | null };
export type TitleDecision = { accept: boolean; reason: string };

const RANK: Record<TitleSourceKind, number> = { fallback: 1, model: 2, user: 3 };

// A title stored before provenance existed has no source; anything automatic may improve on it.
const rankOf = (source: TitleSource | null): number => (source ? (RANK[source.kind] ?? 0) : 0);

const hasTitle = (t: string | null | undefined): t is string => typeof t === "string" && t.trim() !== "";

/**
 * The single rule every title writer goes through: fallback < model < user; user titles are pinned.
 * `fromRun`: the title is in a run's values. A user title there is one the thread had when the
 * run's checkpoint was written (a rename is never made by a run), so unless it is the thread's
 * title now, it is an older rename a branch brought back, and it replaces nothing.
 */
export function decideTitle(
  current: TitleFact,
  proposed: { title: string; source: TitleSource },
  opts: { regenerate?: boolean; fromRun?: boolean } = {},
): TitleDecision {
  if (!hasTitle(proposed.title)) return { accept: false, reason: "proposed title is empty" };
  if (proposed.source.kind === "user") {
    if (opts.fromRun && !(current.source?.kind === "user" && current.title === proposed.title)) {
      return { accept: false, reason: "an older rename in a run's values does not replace the thread's title" };
    }
    return { accept: true, reason: "a user rename always wins" };
  }
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

/**
 * A branch (a run or state update from an older checkpoint: an edited or branched message) and the
 * thread's title: the title to write into the branch's head, or null to keep the head's. The
 * thread's user title is the thread's, not a checkpoint's, so it is carried into the branch; and
 * a branch never brings back a rename the thread has since left (by a regenerate or an Undo), so
 * over an older user title the thread's automatic one is carried too. Between automatic titles
 * the branch keeps its own.
 */
export function titleLeftBehind(thread: TitleFact | null | undefined, head: TitleFact): (TitleFact & { title: string; source: TitleSource }) | null {
  if (!thread || !hasTitle(thread.title) || !thread.source || sameTitleFact(thread, head)) return null;
  if (thread.source.kind !== "user" && head.source?.kind !== "user") return null;
  const carry = { title: thread.title, source: thread.source };
  // Over an older rename the thread's automatic title goes in as a regenerate's would: the user
  // left that rename by a regenerate or an Undo.
  return decideTitle(head, carry, { regenerate: carry.source.kind !== "user" }).accept ? carry : null;
}
