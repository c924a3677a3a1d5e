/**
 * Per-conversation records kept in one localStorage item as a JSON map, each with the time it was
 * written, bounded to the most recent ones so a forgotten pile never fills the origin's storage.
 * Drafts (use-draft.ts) and unsent sends (unsent.ts) are kept this way.
 */
export type RecordStorage = Pick<Storage, "getItem" | "setItem">;

/** The records under `item`; entries `parse` rejects, and a corrupt item, read as none. */
export function loadRecords<T extends { at: number }>(storage: RecordStorage, item: string, parse: (value: unknown) => T | null): Record<string, T> {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(item) ?? "{}");
    if (!parsed || typeof parsed !== "object") return {};
    const out: Record<string, T> = {};
    for (const [k, v] of Object.entries(parsed)) {
      const record = parse(v);
      if (record) out[k] = record;
    }
    return out;
  } catch {
    return {};
  }
}

/** Writes the `max` most recent records; a full or refused storage keeps the old item (false). */
export function saveRecords<T extends { at: number }>(storage: RecordStorage, item: string, records: Record<string, T>, max: number): boolean {
  const kept = Object.entries(records)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, max);
  try {
    storage.setItem(item, JSON.stringify(Object.fromEntries(kept)));
    return true;
  } catch {
    // quota or private mode: what the page holds in memory goes on without this copy
    return false;
  }
}
