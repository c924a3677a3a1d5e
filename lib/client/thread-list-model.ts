import { sameTitleFact } from "@/lib/title";
import { resolveThreadTitle } from "./resolve-row-title";
import type {
  DateGroup,
  ListItem,
  RowPatch,
  RowPatches,
  RowView,
  ThreadListModel,
  ThreadPage,
  ThreadRow,
} from "./types";

export const DATE_GROUP_ORDER: readonly DateGroup[] = [
  "Starred",
  "Today",
  "Yesterday",
  "Previous 7 days",
  "Previous 30 days",
  "Older",
];

const DAY_MS = 86_400_000;

/**
 * Start of the calendar day `daysAgo` days before `now`. With `tzOffsetMin` null it is this
 * runtime's local calendar (DST-safe: built from y/m/d); with an offset (minutes east of UTC) it
 * is that zone's, so the server can render the groups the browser will show.
 */
function startOfDay(now: number, daysAgo: number, tzOffsetMin: number | null): number {
  if (tzOffsetMin === null) {
    const d = new Date(now);
    return new Date(d.getFullYear(), d.getMonth(), d.getDate() - daysAgo).getTime();
  }
  const offset = tzOffsetMin * 60_000;
  return Math.floor((now + offset) / DAY_MS) * DAY_MS - offset - daysAgo * DAY_MS;
}

/** The date group of an activity instant, by the calendar of `now` (local, or at a fixed offset). */
export function dateGroupOf(activityIso: string, now: number, tzOffsetMin: number | null = null): Exclude<DateGroup, "Starred"> {
  const t = Date.parse(activityIso);
  if (Number.isNaN(t)) return "Older";
  if (t >= startOfDay(now, 0, tzOffsetMin)) return "Today"; // includes small clock skew into the future
  if (t >= startOfDay(now, 1, tzOffsetMin)) return "Yesterday";
  if (t >= startOfDay(now, 7, tzOffsetMin)) return "Previous 7 days";
  if (t >= startOfDay(now, 30, tzOffsetMin)) return "Previous 30 days";
  return "Older";
}

function laterIso(a: string, b: string | undefined): string {
  if (!b) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

interface Entry {
  id: string;
  row: ThreadRow | undefined;
  fetchedAt: number;
}

function collectEntries(pages: readonly ThreadPage[], patches: RowPatches, includeDrafts: boolean): Entry[] {
  const byId = new Map<string, Entry>();
  for (const page of pages) {
    for (const row of page.rows) {
      const seen = byId.get(row.id);
      // The same thread on two pages (possible across a refetch): the fresher copy wins.
      if (!seen || page.fetchedAt > seen.fetchedAt) byId.set(row.id, { id: row.id, row, fetchedAt: page.fetchedAt });
    }
  }
  if (includeDrafts) {
    for (const [id, patch] of Object.entries(patches)) {
      if (patch.draft && !byId.has(id)) byId.set(id, { id, row: undefined, fetchedAt: 0 });
    }
  }
  return [...byId.values()];
}

function toView(entry: Entry, patch: RowPatch | undefined, now: number, tzOffsetMin: number | null): RowView | null {
  if (patch?.deleted) return null;
  const { row } = entry;
  const base = row?.activityAt ?? patch?.draft?.createdAt ?? new Date(0).toISOString();
  const activityAt = laterIso(base, patch?.activityAt);
  const starred = patch?.starred ?? row?.starred ?? false;
  const busy = patch?.busy === true || row?.status === "busy";
  const resolved = resolveThreadTitle(row, entry.fetchedAt, patch);
  return {
    id: entry.id,
    title: resolved.title,
    source: resolved.source,
    pending: resolved.local || (resolved.title === null && (busy || Boolean(patch?.draft))),
    starred,
    activityAt,
    group: starred ? "Starred" : dateGroupOf(activityAt, now, tzOffsetMin),
    busy,
  };
}

function compareRows(a: RowView, b: RowView): number {
  if (a.starred !== b.starred) return a.starred ? -1 : 1;
  const d = Date.parse(b.activityAt) - Date.parse(a.activityAt);
  if (d !== 0 && !Number.isNaN(d)) return d;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The sidebar's view of the list: fetched pages + this tab's patches → ordered rows with date
 * group headers. Pure; the caller memoises it. Starred rows first, then Today / Yesterday /
 * Previous 7 days / Previous 30 days / Older by last activity; one row per thread id.
 */
export function buildThreadListModel(
  pages: readonly ThreadPage[],
  patches: RowPatches,
  now: number,
  opts: { includeDrafts?: boolean; tzOffsetMin?: number | null } = {},
): ThreadListModel {
  const rows: RowView[] = [];
  for (const entry of collectEntries(pages, patches, opts.includeDrafts ?? true)) {
    const view = toView(entry, patches[entry.id], now, opts.tzOffsetMin ?? null);
    if (view) rows.push(view);
  }
  rows.sort(compareRows);

  const items: ListItem[] = [];
  let group: DateGroup | null = null;
  for (const row of rows) {
    if (row.group !== group) {
      group = row.group;
      items.push({ kind: "header", key: `h:${group}`, label: group });
    }
    items.push({ kind: "row", key: row.id, row });
  }
  return { items, rows, byId: new Map(rows.map((r) => [r.id, r])) };
}

/** Two views render the same (lets memoised rows skip work yet never miss a title change). */
export function sameRowView(a: RowView, b: RowView): boolean {
  return (
    a.id === b.id &&
    sameTitleFact(a, b) &&
    a.pending === b.pending &&
    a.starred === b.starred &&
    a.busy === b.busy &&
    a.activityAt === b.activityAt &&
    a.group === b.group
  );
}
