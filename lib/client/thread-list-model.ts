import { sameTitleFact } from "@/lib/title";
import { isBusy, resolveThreadTitle } from "./resolve-row-title";
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
  const busy = isBusy(row?.status, entry.fetchedAt, patch);
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
  // An unreadable instant sorts as the oldest: the order stays total, so a list extended page by
  // page (fromPreviousBuild) is the list sorted whole.
  return { view, t: Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t };
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

/** Rows in order → the list's items: a date group's header before its first row. */
function pushItems(items: ListItem[], rows: readonly RowView[], group: DateGroup | null): void {
  for (const row of rows) {
    if (row.group !== group) {
      group = row.group;
      items.push({ kind: "header", key: `h:${group}`, label: group });
    }
    items.push({ kind: "row", key: row.id, row });
  }
}

/** What a model was built from, so that the next page can extend it (see fromPreviousBuild). */
interface BuiltFrom {
  pages: readonly ThreadPage[];
  patches: RowPatches;
  boundsKey: string;
  includeDrafts: boolean;
  /** The model's last row, with its parsed instant. */
  last: Timed | null;
  /** The latest `fetchedAt` of its pages. */
  freshest: number;
}
const builtFrom = new WeakMap<ThreadListModel, BuiltFrom>();
/** The last model built on pages ending with this page: one per chain, so old ones can go. */
const builtOn = new WeakMap<ThreadPage, ThreadListModel>();

/** The last model built on `pages` or on fewer of them (scrolling in adds pages at the end). */
function previousBuild(pages: readonly ThreadPage[]): ThreadListModel | null {
  for (let i = pages.length - 1; i >= 0; i--) {
    const model = builtOn.get(pages[i]);
    if (model) return model;
  }
  return null;
}

function remember(model: ThreadListModel, from: BuiltFrom, replaces: ThreadListModel | null): ThreadListModel {
  builtFrom.set(model, from);
  const lastPage = from.pages.at(-1);
  if (lastPage) builtOn.set(lastPage, model);
  const old = replaces && builtFrom.get(replaces)?.pages.at(-1);
  if (old && old !== lastPage && builtOn.get(old) === replaces) builtOn.delete(old);
  return model;
}

/** Replaces, in a copy of `list`, the entries for the rows in `fresher` (searched from the end). */
function withFresher<T>(list: readonly T[], fresher: ReadonlyMap<string, RowView>, idOf: (item: T) => string | null, make: (row: RowView) => T): T[] {
  const copy = list.slice();
  let left = fresher.size;
  for (let i = copy.length - 1; i >= 0 && left > 0; i--) {
    const id = idOf(copy[i]);
    const row = id === null ? undefined : fresher.get(id);
    if (row) {
      copy[i] = make(row);
      left--;
    }
  }
  return copy;
}

/**
 * The model for `pages` made from `previous`: itself for the same inputs, or extended when the
 * only change since is pages added at the end whose threads sort after its last row (a long list
 * scrolling in); else null, and the caller builds it whole. A thread the previous pages held too
 * (pages overlap by a few rows) takes its fresher copy in place, if that copy sorts where the old
 * one did. The result equals the whole build's (tested as a property). It still copies the
 * lists (a flat copy, cheap), but it makes views for and sorts the new pages only, where the whole
 * build did so for every loaded row at each page: 10,000 of them at the end of a long list.
 */
function fromPreviousBuild(
  previous: ThreadListModel,
  pages: readonly ThreadPage[],
  patches: RowPatches,
  bounds: ReturnType<typeof groupBounds>,
  boundsKey: string,
  includeDrafts: boolean,
): ThreadListModel | null {
  const from = builtFrom.get(previous);
  if (!from || from.patches !== patches || from.boundsKey !== boundsKey || from.includeDrafts !== includeDrafts) return null;
  const kept = from.pages.length;
  if (pages.length < kept || from.pages.some((page, i) => page !== pages[i])) return null;
  // The same inputs (the sidebar and the drawer each have a list; the clock ticked in the same day).
  if (pages.length === kept) return previous;
  const ids = new Set<string>();
  const added: Timed[] = [];
  const fresher = new Map<string, RowView>();
  let last = from.last;
  for (const page of pages.slice(kept)) {
    for (const row of page.rows) {
      if (ids.has(row.id)) return null;
      ids.add(row.id);
      const timed = cachedView({ id: row.id, row, fetchedAt: page.fetchedAt }, patches[row.id], bounds, boundsKey);
      const listed = previous.byId.get(row.id);
      if (!listed) {
        // New, or hidden before and still (a deleted thread's patch hides every copy of it).
        if (timed) added.push(timed);
        continue;
      }
      const inPlace = timed && page.fetchedAt > from.freshest && timed.view.starred === listed.starred && timed.view.activityAt === listed.activityAt;
      if (!inPlace) return null;
      fresher.set(row.id, timed.view);
      if (last?.view.id === row.id) last = timed;
    }
  }
  added.sort(compareRows);
  if (last && added.length > 0 && compareRows(last, added[0]) >= 0) return null;
  const newRows = added.map((r) => r.view);
  const items = withFresher(previous.items, fresher, (i) => (i.kind === "row" ? i.row.id : null), (row): ListItem => ({ kind: "row", key: row.id, row }));
  pushItems(items, newRows, last?.view.group ?? null);
  const rows = withFresher(previous.rows, fresher, (r) => r.id, (r) => r);
  rows.push(...newRows);
  const byId = new Map(previous.byId);
  for (const row of [...fresher.values(), ...newRows]) byId.set(row.id, row);
  const freshest = Math.max(from.freshest, ...pages.slice(kept).map((p) => p.fetchedAt));
  return remember({ items, rows, byId }, { pages, patches, boundsKey, includeDrafts, last: added.at(-1) ?? last, freshest }, previous);
}

/**
 * The sidebar's view of the list: fetched pages + this tab's patches → ordered rows with date
 * group headers. Pure; the caller memoises it. Starred rows first, then Today / Yesterday /
 * Previous 7 days / Previous 30 days / Older by last activity; one row per thread id.
 * A model built before on the same pages, or on fewer of them (a long list scrolling in), is
 * reused or extended rather than rebuilt when it can be (fromPreviousBuild); the result is the
 * same either way.
 */
export function buildThreadListModel(
  pages: readonly ThreadPage[],
  patches: RowPatches,
  now: number,
  opts: { includeDrafts?: boolean; tzOffsetMin?: number | null } = {},
): ThreadListModel {
  const bounds = groupBounds(now, opts.tzOffsetMin ?? null);
  const boundsKey = bounds.map(([, start]) => start).join(",");
  const includeDrafts = opts.includeDrafts ?? true;
  const previous = previousBuild(pages);
  const extended = previous && fromPreviousBuild(previous, pages, patches, bounds, boundsKey, includeDrafts);
  if (extended) return extended;
  const timed: Timed[] = [];
  for (const entry of collectEntries(pages, patches, includeDrafts)) {
    const view = cachedView(entry, patches[entry.id], bounds, boundsKey);
    if (view) timed.push(view);
  }
  timed.sort(compareRows);
  const rows = timed.map((r) => r.view);
  const items: ListItem[] = [];
  pushItems(items, rows, null);
  const model: ThreadListModel = { items, rows, byId: new Map(rows.map((r) => [r.id, r])) };
  const freshest = Math.max(0, ...pages.map((p) => p.fetchedAt));
  return remember(model, { pages, patches, boundsKey, includeDrafts, last: timed.at(-1) ?? null, freshest }, previous);
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

/**
 * Every title this tab's patches give a thread (the server's, the stream's, an edit's), as one
 * string: it changes exactly when a title in the tab changes, so a title search on screen (which
 * matches titles server-side) knows to ask again. Threads in id order, so the order patches were
 * made in does not count. A title the browser worked out itself (a new conversation's instant
 * title) counts apart from the same text from the server: a search asked while only the browser
 * had it cannot find it yet, so it is asked again once the server has it.
 */
export function patchedTitles(patches: RowPatches): string {
  return JSON.stringify(
    Object.keys(patches)
      .sort()
      .map((id) => {
        const stream = patches[id].stream;
        return [id, patches[id].server?.fact.title ?? null, stream?.fact.title ?? null, stream?.local === true, patches[id].edit?.title ?? null];
      }),
  );
}
