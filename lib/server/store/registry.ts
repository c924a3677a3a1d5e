import { randomUUID } from "node:crypto";
import type { StateSnapshot } from "@langchain/langgraph";
import { decideTitle, parseTitleSource, sameTitleFact, titleFactOf, type TitleFact } from "@/lib/title";
import { nowIso } from "./clock";
import { conflict, notFound } from "../http/errors";
import { interruptsOf } from "../graph";
import type { Queries, SyncedFact, ThreadHead, ThreadRow, ThreadStatus, ThreadTitleColumns } from "./queries";
import type { ThreadQuery } from "./search-sql";
import type { TitleRequestRecord } from "@/lib/agent/title-model";
import { toJson } from "./serde";

/**
 * The thread registry: the list's only source. Its title columns are a projection of the
 * checkpoint's `title`/`title_source`, except while a rename made during a run is pending
 * (`pin_pending`): then the registry is ahead and the run manager owes the checkpoint a write.
 */

/**
 * A rename accepted during a run (`pin_pending`) is the thread's title from that moment, though the
 * run's checkpoint (which the values mirror) gets it only when the run ends.
 */
function withPendingPin(row: ThreadRow, values: unknown): unknown {
  if (!row.pin_pending || !values || typeof values !== "object" || Array.isArray(values)) return values;
  return { ...values, title: row.title, title_source: parse(row.title_source, null) };
}

const parse = <T>(s: string | null | undefined, fallback: T): T => {
  if (s == null) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
};

/** A snapshot's checkpoint id and title fact, spelled as `setTitle` writes them into the title columns. */
export function syncedFactOf(snap: StateSnapshot, spelled?: { title: string | null; title_source: string | null }): SyncedFact {
  const fact = titleFactOf(snap.values);
  const checkpointId = (snap.config?.configurable?.checkpoint_id as string | undefined) ?? null;
  if (spelled) return { checkpointId, title: spelled.title, titleSource: spelled.title_source };
  return { checkpointId, title: fact.title, titleSource: fact.source ? JSON.stringify(fact.source) : null };
}

export type ThreadJsonOptions = { select?: readonly string[]; extract?: [string, string][] };

export class Registry {
  constructor(private readonly q: Queries) {}

  async get(threadId: string): Promise<ThreadRow> {
    const row = await this.q.getThread(threadId);
    if (!row) throw notFound(`Thread ${threadId}`);
    return row;
  }

  /** The thread's head (the columns the checks read; not its values snapshot nor the synced_* columns), or undefined. */
  find = (threadId: string) => this.q.getThreadHead(threadId);

  /** Like `get`, without the values snapshot: for 404 checks and title or status reads. */
  async head(threadId: string): Promise<ThreadHead> {
    const row = await this.find(threadId);
    if (!row) throw notFound(`Thread ${threadId}`);
    return row;
  }

  /** Note: every method is async (the store is); read-decide-write steps run in one transaction. */

  async create(opts: { threadId?: string; metadata?: Record<string, unknown>; ifExists?: "raise" | "do_nothing" }): Promise<ThreadRow> {
    const threadId = opts.threadId ?? randomUUID();
    // The insert itself decides who was first: a concurrent create with the same id gets `false`.
    const inserted = await this.q.insertThread({ thread_id: threadId, at: nowIso(), metadata: JSON.stringify(opts.metadata ?? {}) });
    if (!inserted && opts.ifExists !== "do_nothing") throw conflict(`Thread ${threadId} already exists`);
    return this.get(threadId);
  }

  /** Metadata patches merge key by key (a key set to null stays, as null), like the LangGraph API. */
  patchMetadata(threadId: string, patch: Record<string, unknown>): Promise<ThreadRow> {
    // Read and write in one transaction, so two concurrent patches cannot drop each other's keys.
    return this.q.transaction(async () => {
      const row = await this.head(threadId);
      const merged = { ...parse<Record<string, unknown>>(row.metadata, {}), ...patch };
      await this.q.setMetadata(threadId, JSON.stringify(merged), nowIso());
      return this.get(threadId);
    });
  }

  /** Adds keys only when missing (graph_id/assistant_id on a thread's first run). */
  async ensureMetadata(threadId: string, defaults: Record<string, unknown>) {
    await this.q.transaction(async () => {
      const row = await this.head(threadId);
      const current = parse<Record<string, unknown>>(row.metadata, {});
      if (Object.keys(defaults).every((k) => k in current)) return;
      await this.q.setMetadata(threadId, JSON.stringify({ ...defaults, ...current }), row.updated_at);
    });
  }

  /** `activity`: the conversation moved (a run started or ended, its state was updated), so the list reorders. */
  async setStatus(threadId: string, status: ThreadStatus, activity = false) {
    await this.q.setStatus(threadId, status, activity ? nowIso() : undefined);
  }

  titleOf(row: Pick<ThreadRow, "title" | "title_source">): TitleFact {
    return { title: row.title, source: parseTitleSource(row.title_source) };
  }

  /** What a running TitleMiddleware asks before any automatic write: the registry's user pin, if any. */
  async readPin(threadId: string): Promise<TitleFact | null> {
    const row = await this.q.getThreadHead(threadId);
    if (!row) return null;
    const fact = this.titleOf(row);
    return fact.source?.kind === "user" ? fact : null;
  }

  /** Stores one title-model request's audit record (dropped if the thread is gone by then). */
  async recordTitleRequest(record: TitleRequestRecord) {
    if (record.thread_id) await this.q.insertTitleRequest({ ...record, thread_id: record.thread_id });
  }

  async titleRequests(threadId: string, limit: number, offset: number) {
    await this.head(threadId);
    return this.q.listTitleRequests(threadId, limit, offset);
  }

  /** A rename accepted while the thread is busy: visible in search at once, owed to the checkpoint. */
  async recordPendingPin(threadId: string, title: string) {
    await this.q.setTitle(threadId, title, JSON.stringify({ kind: "user" }), true, nowIso());
  }

  clearPendingPin = async (threadId: string) => void (await this.q.clearPin(threadId));
  /** Clears the flag only if the pending title is still `title` (one statement: a newer rename keeps its flag). */
  clearPendingPinIf = async (threadId: string, title: string) => void (await this.q.clearPinIf(threadId, title));

  /** Marks an idle-thread write under way (checkpoint first, registry second); see schema.ts. */
  markSyncPending = async (threadId: string) => void (await this.q.setSyncPending(threadId, true));
  clearSyncPending = async (threadId: string) => void (await this.q.setSyncPending(threadId, false));

  async setTitle(threadId: string, fact: TitleFact) {
    await this.q.setTitle(threadId, fact.title, fact.source ? JSON.stringify(fact.source) : null, false, nowIso());
  }

  /**
   * A `values` chunk from a run: refresh the snapshot, and move the title projection only if
   * the one precedence rule allows it. A pending pin is newer than anything the run can say.
   */
  async projectValues(threadId: string, values: unknown, valuesJson = toJson(values)) {
    const row = await this.q.setValuesOnly(threadId, valuesJson);
    const proposed = titleFactOf(values);
    if (!row || !proposed.title || !proposed.source) return;
    const { title, source } = proposed;
    await this.retitle(threadId, proposed, (current) => decideTitle(current, { title, source }, { fromRun: true }).accept, row);
  }

  /**
   * Moves the title projection to `fact` if `allowed` by the row as it is now. Most values chunks
   * leave the title alone, so the cheap read (or the columns `seen` by the write just made)
   * decides first; a change re-reads the row inside one transaction (locked on Postgres), so a
   * rename recorded in between is never overwritten.
   */
  private async retitle(threadId: string, fact: TitleFact, allowed: (current: TitleFact) => boolean, seen?: ThreadTitleColumns) {
    const wanted = (row: ThreadTitleColumns | undefined) => row && !row.pin_pending && !sameTitleFact(this.titleOf(row), fact) && allowed(this.titleOf(row));
    if (!wanted(seen ?? (await this.q.getThreadHead(threadId)))) return;
    await this.q.transaction(async () => {
      if (wanted(await this.q.lockThread(threadId))) await this.setTitle(threadId, fact);
    });
  }

  /**
   * After a run or a state update: the registry follows the checkpoint (snapshot, interrupts,
   * title). Skipped for the title while a pin is pending, since then the registry is the newer one.
   */
  async mirrorState(threadId: string, snap: StateSnapshot) {
    const hasCheckpoint = Boolean(snap.config?.configurable?.checkpoint_id);
    const interrupts = interruptsOf(snap);
    if (!(await this.q.getThreadHead(threadId))) return;
    await this.q.setValues(threadId, hasCheckpoint ? toJson(snap.values) : null, Object.keys(interrupts).length ? JSON.stringify(interrupts) : null, syncedFactOf(snap));
    await this.retitle(threadId, titleFactOf(snap.values), () => true);
  }

  hasInterrupts = (row: ThreadHead) => row.interrupts_json != null && row.interrupts_json !== "{}";

  search = (query: ThreadQuery) => this.q.searchThreads(query);
  /** A search page as its response body (JSON text), each thread as `threadJson` would make it. */
  searchJson = (query: ThreadQuery) => this.q.searchThreadsJson(query);
  count = (query: ThreadQuery) => this.q.countThreads(query);

  /** A registry row → the Agent Protocol thread object (optionally `select`ed, plus `extracted`). */
  threadJson(row: ThreadRow, opts: ThreadJsonOptions = {}) {
    const full: Record<string, unknown> = {
      thread_id: row.thread_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
      activity_at: row.activity_at,
      metadata: parse(row.metadata, {}),
      status: row.status,
      config: {},
      context: {},
      values: "values_json" in row ? withPendingPin(row, parse(row.values_json, null)) : undefined,
      interrupts: parse(row.interrupts_json, {}),
    };
    const out: Record<string, unknown> = opts.select ? Object.fromEntries(opts.select.map((k) => [k, full[k]])) : full;
    if (opts.extract?.length) {
      out.extracted = Object.fromEntries(opts.extract.map(([alias], i) => [alias, parse(row[`ex_${i}`], null)]));
    }
    return out;
  }
}
