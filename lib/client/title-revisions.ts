import { sameTitleFact, titleFactOf, type TitleFact, type TitleSource } from "@/lib/title";

/** What `threads.getHistory` returns per checkpoint, narrowed to what a title revision needs. */
export interface HistoryEntry {
  values?: unknown;
  created_at?: string | null;
  checkpoint?: { checkpoint_id?: string | null } | null;
}

export interface TitleRevision {
  title: string;
  source: TitleSource | null;
  /** When this title was set: the oldest checkpoint of its run of identical checkpoints. */
  at: string | null;
  /** The checkpoint that set it. */
  checkpointId: string | null;
}

/**
 * A thread's title revisions, newest first, from its checkpoint history (newest first, as the API
 * returns it). Every run and state update adds checkpoints that merely repeat the title, so
 * consecutive checkpoints with the same title AND source are one revision; the same title coming
 * back later (A → B → A) is a new one. Checkpoints without a title are not revisions.
 */
export function titleRevisions(history: readonly HistoryEntry[], max = Infinity): TitleRevision[] {
  const out: TitleRevision[] = [];
  let last: TitleFact | null = null;
  for (const entry of history) {
    const fact = titleFactOf(entry.values);
    if (!fact.title) continue;
    const at = entry.created_at ?? null;
    const checkpointId = entry.checkpoint?.checkpoint_id ?? null;
    if (last && sameTitleFact(last, fact)) {
      const revision = out[out.length - 1];
      revision.at = at ?? revision.at;
      revision.checkpointId = checkpointId ?? revision.checkpointId;
      continue;
    }
    // The revision just finished is complete only now that an older, different one showed up.
    if (out.length === max) break;
    out.push({ title: fact.title, source: fact.source, at, checkpointId });
    last = fact;
  }
  return out;
}

/**
 * The revisions with `shown` on top when the checkpoints do not hold it yet: a rename made while an
 * answer runs is kept by the server and written into the conversation only when the run ends, and
 * until then the panel must still call it the current title (the panel passes it only then).
 * Undated (its checkpoint is not written).
 */
export function withShownTitle(revisions: readonly TitleRevision[], shown: TitleFact | null): readonly TitleRevision[] {
  if (!shown?.title || (revisions[0] && sameTitleFact(revisions[0], shown))) return revisions;
  return [{ title: shown.title, source: shown.source, at: null, checkpointId: null }, ...revisions];
}
