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

type DayGroup = Exclude<DateGroup, "Starred">;
/** Each dated group with the first day it covers, newest first; the rest is "Older". */
const GROUP_STARTS: ReadonlyArray<readonly [DayGroup, number]> = [
  ["Today", 0],
  ["Yesterday", 1],
  ["Previous 7 days", 7],
  ["Previous 30 days", 30],
];

/** The calendar's group boundaries for `now`, computed once per list (not once per row). */
function groupBounds(now: number, tzOffsetMin: number | null): ReadonlyArray<readonly [DayGroup, number]> {
  return GROUP_STARTS.map(([group, daysAgo]) => [group, startOfDay(now, daysAgo, tzOffsetMin)] as const);
}

function groupOfTime(t: number, bounds: ReadonlyArray<readonly [DayGroup, number]>): DayGroup {
  if (Number.isNaN(t)) return "Older";
  // "Today" includes small clock skew into the future.
  for (const [group, start] of bounds) if (t >= start) return group;
  return "Older";
}

/** The date group of an activity instant, by the calendar of `now` (local, or at a fixed offset). */
export function dateGroupOf(activityIso: string, now: number, tzOffsetMin: number | null = null): DayGroup {
  return groupOfTime(Date.parse(activityIso), groupBounds(now, tzOffsetMin));
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

/** A row with its activity instant parsed once: the sort compares numbers, not ISO strings. */
interface Timed {
  view: RowView;
  t: number;
}

function toView(entry: Entry, patch: RowPatch | undefined, bounds: ReturnType<typeof groupBounds>): Timed | null {
  if (patch?.deleted) return null;
  const { row } = entry;
  const base = row?.activityAt ?? patch?.draft?.createdAt ?? new Date(0).toISOString();
  const baseT = Date.parse(base);
  const patchT = patch?.activityAt ? Date.parse(patch.activityAt) : NaN;
  // The later of the two (a patch moves a row up when its conversation moved on in this tab).
  const later = patchT > baseT;
  const activityAt = later ? (patch?.activityAt ?? base) : base;
  const t = later ? patchT : baseT;
  const starred = patch?.starred ?? row?.starred ?? false;
  const busy = patch?.busy === true || row?.status === "busy";
  const resolved = resolveThreadTitle(row, entry.fetchedAt, patch);
  const view: RowView = {
    id: entry.id,
    title: resolved.title,
    source: resolved.source,
    pending: resolved.local || (resolved.title === null && (busy || Boolean(patch?.draft))),
    starred,
    activityAt,
    group: starred ? "Starred" : groupOfTime(t, bounds),
    busy,
  };
  return { view, t };
}

/**
 * The last view made for each fetched row object. Pages are immutable and kept by the query cache,
 * so while a long list scrolls in, each rebuild (one per arriving page) makes views only for the
 * new page's rows and the patched ones: it was every loaded row's title resolution and date
 * parsing, 10,000 of them at the end of a long list, between two frames. Same inputs, same view.
 */
interface CachedView {
  fetchedAt: number;
  patch: RowPatch | undefined;
  boundsKey: string;
  timed: Timed | null;
}
const viewCache = new WeakMap<ThreadRow, CachedView>();

function cachedView(entry: Entry, patch: RowPatch | undefined, bounds: ReturnType<typeof groupBounds>, boundsKey: string): Timed | null {
  const { row } = entry;
  if (!row) return toView(entry, patch, bounds);
  const hit = viewCache.get(row);
  if (hit && hit.fetchedAt === entry.fetchedAt && hit.patch === patch && hit.boundsKey === boundsKey) return hit.timed;
  const timed = toView(entry, patch, bounds);
  viewCache.set(row, { fetchedAt: entry.fetchedAt, patch, boundsKey, timed });
  return timed;
}

function compareRows(a: Timed, b: Timed): number {
  if (a.view.starred !== b.view.starred) return a.view.starred ? -1 : 1;
  const d = b.t - a.t;
  if (d !== 0 && !Number.isNaN(d)) return d;
  return a.view.id < b.view.id ? -1 : a.view.id > b.view.id ? 1 : 0;
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
  const bounds = groupBounds(now, opts.tzOffsetMin ?? null);
  const boundsKey = bounds.map(([, start]) => start).join(",");
  const timed: Timed[] = [];
  for (const entry of collectEntries(pages, patches, opts.includeDrafts ?? true)) {
    const view = cachedView(entry, patches[entry.id], bounds, boundsKey);
    if (view) timed.push(view);
  }
  timed.sort(compareRows);
  const rows = timed.map((r) => r.view);

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
