import type { TitleFact, TitleSource } from "@/lib/title";

export type { TitleFact, TitleSource };

/** A thread as the lean list returns it (no `values`), stamped with when we asked for it. */
export interface ThreadRow {
  id: string;
  createdAt: string;
  /** Last activity (the API's `activity_at`): messages move a row, renames and stars do not. */
  activityAt: string;
  status: "idle" | "busy" | "interrupted" | "error";
  starred: boolean;
  title: TitleFact;
}

/** One page of the lean list; `fetchedAt` (ms) orders it against live facts. */
export interface ThreadPage {
  rows: ThreadRow[];
  fetchedAt: number;
  /** Offset of the next page, or null when this was the last one. */
  nextOffset: number | null;
  /** Snapshot instant shared by every page of one list (the API's `$as_of`). */
  asOf: string;
}

export interface PageParam {
  offset: number;
  asOf: string;
}

/** A title fact with the moment (ms since epoch) this tab learned it. */
export interface TimedFact {
  fact: TitleFact;
  at: number;
  /** True for the browser's own instant fallback title, not yet confirmed by the server. */
  local?: boolean;
}

/** A rename the user made that the server has not confirmed yet. */
export interface OptimisticEdit {
  title: string;
  at: number;
}

/**
 * What this tab knows about a row beyond the fetched pages. Lives in the query cache under
 * `threadKeys.patches()`; every writer replaces exactly one entry.
 */
export interface RowPatch {
  /** Authoritative fact from a server response (rename, regenerate, another tab, page data). */
  server?: TimedFact;
  /** Latest non-empty title seen on a run's `values` stream (or the instant title). */
  stream?: TimedFact;
  edit?: OptimisticEdit;
  /** A thread this tab (or another tab) just created that no fetched page holds yet. */
  draft?: { createdAt: string };
  /** Hidden while a delete waits out its undo toast, or after it happened. */
  deleted?: boolean;
  starred?: boolean;
  /** Activity newer than the fetched row (a run started here). */
  activityAt?: string;
  /** A run of this tab (or another tab) is going on this thread, or has ended (false). */
  busy?: boolean;
  /** When `busy` was learnt (ms): it overrides a fetched row's status only when newer (isBusy). */
  busyAt?: number;
}

export type RowPatches = Readonly<Record<string, RowPatch>>;

export type DateGroup = "Starred" | "Today" | "Yesterday" | "Previous 7 days" | "Previous 30 days" | "Older";

/** What the UI renders for one row: the ONE resolved title plus display facts. */
export interface RowView {
  id: string;
  /** The resolved title, or null when the thread has none yet. */
  title: string | null;
  source: TitleSource | null;
  /** A title is on its way: shimmer. */
  pending: boolean;
  starred: boolean;
  activityAt: string;
  group: DateGroup;
  busy: boolean;
}

export type ListItem =
  | { kind: "header"; key: string; label: DateGroup }
  | { kind: "row"; key: string; row: RowView };

export interface ThreadListModel {
  items: ListItem[];
  rows: RowView[];
  byId: ReadonlyMap<string, RowView>;
}
