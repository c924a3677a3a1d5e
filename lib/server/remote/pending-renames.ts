import { normalizeUserTitle } from "@/lib/title";
import type { ThreadlineUser } from "../auth/identity";
import type { RenameJournal } from "../store/rename-journal";
import type { UpstreamFetch } from "./upstream";

/**
 * Renames on a LangGraph server. A rename is a standard `threads.updateState` with `title` and
 * `title_source: { kind: "user" }` (the graph's TitleMiddleware never replaces such a title). A
 * LangGraph server refuses that while a run is going (409 "Thread is busy"): then the rename is
 * kept here, the browser is told it is pending, and it is written as soon as the thread's runs
 * have ended (join, then retry) — dropped only when that server refuses it outright (a 4xx
 * other than 409/429: the thread is gone, or its auth says no). A newer rename of the same thread replaces a
 * pending one, so the last word wins. With a journal, a waiting rename is on disk before the
 * browser hears "pending" and is replayed when this server starts again (`resume`).
 */
export type RenameValues = { title: string; title_source: { kind: "user" } };

/** The title of a rename body (`{ values: { title } }`, optionally with a user source); null = not a rename. */
export function renameOf(body: unknown): { ok: true; values: RenameValues } | { ok: false; message: string } | null {
  const b = body as { values?: unknown; as_node?: unknown; checkpoint?: unknown } | null;
  if (!b || typeof b !== "object" || b.as_node != null || b.checkpoint != null) return null;
  const v = b.values as Record<string, unknown> | null | undefined;
  if (!v || typeof v !== "object" || Array.isArray(v) || !("title" in v)) return null;
  const keys = Object.keys(v);
  const src = v.title_source as { kind?: unknown } | null | undefined;
  if (keys.some((k) => k !== "title" && k !== "title_source") || (src != null && src.kind !== "user")) return null;
  const checked = normalizeUserTitle(v.title);
  if (!checked.ok) return { ok: false, message: checked.message };
  return { ok: true, values: { title: checked.title, title_source: { kind: "user" } } };
}

/** After this long waiting, a rename is tried every SLOW_RETRY_MS only (a run that long, or that server away). */
export const SLOW_AFTER_MS = 30 * 60_000;
export const SLOW_RETRY_MS = 30_000;
const ACTIVE = new Set(["pending", "running"]);

/** The same caller (local mode has none: one implicit user). */
const sameCaller = (a: ThreadlineUser | null, b: ThreadlineUser | null) => (a?.identity ?? null) === (b?.identity ?? null);

/** One thread's waiting rename: the newest words, since when they wait, and how to cut a pause short. */
type Waiting = { values: RenameValues; who: ThreadlineUser | null; done: Promise<boolean>; since: number; wake: (() => void) | null };

/** A timer that does not keep the process alive (a rename that waits is not a reason to stay up); `stop` ends it early. */
const pauseFor = (ms: number, stop: AbortSignal, onWake?: (wake: () => void) => void) =>
  new Promise<void>((resolve) => {
    if (stop.aborted) return resolve();
    const end = () => (clearTimeout(timer), stop.removeEventListener("abort", end), resolve());
    const timer = setTimeout(end, ms);
    timer.unref?.();
    stop.addEventListener("abort", end);
    onWake?.(end);
  });

export class PendingRenames {
  private readonly waiting = new Map<string, Waiting>();
  /** Aborted by close(): every wait and request of the loops ends. */
  private readonly closing = new AbortController();

  constructor(
    private readonly upstream: UpstreamFetch,
    private readonly journal: RenameJournal | null = null,
  ) {}

  /** Takes up the renames a previous process left waiting (call once, at start). */
  resume(): number {
    let n = 0;
    for (const e of this.journal?.all() ?? []) {
      if (this.waiting.has(e.threadId)) continue;
      this.track(e.threadId, { title: e.title, title_source: { kind: "user" } }, e.who);
      n++;
    }
    return n;
  }

  /** Writes the rename, or keeps it for after the runs when the thread is busy. */
  async rename(threadId: string, values: RenameValues, who: ThreadlineUser | null): Promise<Response> {
    // Only the caller whose rename is waiting may replace it here, unasked. Anyone else's goes to
    // the server first, whose auth rules decide: a thread they may not see is its 404, never a
    // "pending" that would overwrite (and show) their title on someone else's thread.
    const queued = this.waiting.get(threadId);
    if (queued && sameCaller(queued.who, who)) return this.replace(threadId, queued, values, who);
    const res = await this.write(threadId, values, who);
    if (res.status !== 409) {
      if (!res.ok) return res;
      const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      return Response.json({ ...body, ...values }, { headers: { "Cache-Control": "no-store" } });
    }
    await res.body?.cancel();
    // Busy, and this caller may rename it: the newest rename waits (one waiter per thread).
    const waiting = this.waiting.get(threadId);
    if (waiting) return this.replace(threadId, waiting, values, who);
    this.journal?.put({ threadId, title: values.title, who });
    this.track(threadId, values, who);
    return pendingAnswer(values);
  }

  private replace(threadId: string, entry: Waiting, values: RenameValues, who: ThreadlineUser | null): Response {
    this.journal?.put({ threadId, title: values.title, who });
    entry.values = values;
    entry.who = who;
    // New words wait afresh: tried at once, and at the young pace again.
    entry.since = Date.now();
    entry.wake?.();
    return pendingAnswer(values);
  }

  private track(threadId: string, values: RenameValues, who: ThreadlineUser | null) {
    const entry: Waiting = { values, who, done: Promise.resolve(false), since: Date.now(), wake: null };
    this.waiting.set(threadId, entry);
    entry.done = this.settle(threadId).finally(() => this.waiting.delete(threadId));
  }

  /** The rename waiting for this thread's runs to end, if any. */
  pendingFor(threadId: string): RenameValues | null {
    return this.waiting.get(threadId)?.values ?? null;
  }

  get size(): number {
    return this.waiting.size;
  }

  /**
   * Reads of a thread (GET thread, GET state, thread search) show a waiting rename as if it were
   * written, as the embedded API's registry does: the sidebar that refetches when the run ends,
   * or a reload, must not fall back to the run's automatic title for the moment before it lands.
   */
  async overlay(res: Response, threadId: string | null): Promise<Response> {
    if (this.waiting.size === 0 || !res.ok || !res.headers.get("content-type")?.includes("application/json")) return res;
    const body: unknown = await res.json();
    this.overlayBody(body, threadId);
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    return new Response(JSON.stringify(body), { status: res.status, headers });
  }

  /** overlay on a parsed answer (one thread or a search's array), in place. */
  overlayBody(body: unknown, threadId: string | null): void {
    if (this.waiting.size === 0) return;
    const patch = (t: unknown) => {
      const o = t as { thread_id?: unknown; values?: Record<string, unknown> | null; extracted?: unknown } | null;
      const id = threadId ?? (typeof o?.thread_id === "string" ? o.thread_id : null);
      const values = id ? this.pendingFor(id) : null;
      if (!values || !o || typeof o !== "object") return;
      // The sidebar's list asks for the title with `extract` under the same names as in `values`
      // (lib/client/standard-search.ts); a server that honoured it sent no `values`.
      if (typeof o.extracted === "object" && o.extracted !== null) o.extracted = { ...o.extracted, ...values };
      // A thread in its first run has no `values` yet on a LangGraph server.
      else o.values = { ...(typeof o.values === "object" ? o.values : {}), ...values };
    };
    if (Array.isArray(body)) body.forEach(patch);
    else patch(body);
  }

  /**
   * Stops every waiting loop (tests call it; the app has no shutdown hook that does): once it
   * resolves, no loop sends anything more, and requests they had under way are aborted. What still
   * waits stays in the journal, for the next start to take up (resume). rename() itself still
   * writes straight through after close; if that write is refused as busy, the rename is
   * journalled and left to the next start, with no loop.
   */
  async close(): Promise<void> {
    this.closing.abort();
    await Promise.all([...this.waiting.values()].map((e) => e.done));
  }

  /** Resolves when the thread's pending rename is written (true), refused upstream or left to the next start by close (false); tests await it. */
  settled(threadId: string): Promise<boolean> {
    return this.waiting.get(threadId)?.done ?? Promise.resolve(true);
  }

  private write(threadId: string, values: RenameValues, who: ThreadlineUser | null, signal?: AbortSignal) {
    return this.upstream(
      `/threads/${encodeURIComponent(threadId)}/state`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ values }), signal },
      who,
    );
  }

  /**
   * Never gives a rename up while this process lives: it waits, shown by reads (overlay) and kept in
   * the journal, until it is written or refused. Once the same words have waited SLOW_AFTER_MS it
   * is tried every SLOW_RETRY_MS only: two requests every 30 s rather than several a second when
   * the thread stays busy with no run to join (or the server stays away). New words start afresh.
   */
  private async settle(threadId: string): Promise<boolean> {
    let saidSlow = false;
    /** Before the next try: `ms`, or SLOW_RETRY_MS once these words have waited SLOW_AFTER_MS; a replace cuts it short. */
    const pause = (entry: Waiting, ms: number) => {
      const slow = Date.now() - entry.since >= SLOW_AFTER_MS;
      if (slow && !saidSlow) console.error(`[remote] pending rename of ${threadId} still waiting after ${SLOW_AFTER_MS} ms; trying every ${SLOW_RETRY_MS} ms`);
      saidSlow = slow;
      return pauseFor(slow ? SLOW_RETRY_MS : ms, this.closing.signal, (wake) => (entry.wake = wake)).finally(() => (entry.wake = null));
    };
    for (;;) {
      if (this.closing.signal.aborted) return false;
      const entry = this.waiting.get(threadId)!;
      // A newer rename can replace this one while the write is on its way: write that one too.
      const { values, who } = entry;
      try {
        await this.joinActiveRuns(threadId, who);
        const res = await this.write(threadId, values, who, this.closing.signal);
        await res.body?.cancel();
        if (res.ok && entry.values !== values) continue;
        if (res.ok) {
          this.journal?.remove(threadId, values.title);
          return true;
        }
        if (res.status >= 500 || res.status === 429) {
          // The server or a proxy before it is having a bad moment: that is no answer to the rename.
          console.error(`[remote] pending rename of ${threadId}: upstream answered ${res.status}, retrying`);
          await pause(entry, 1000);
          continue;
        }
        if (res.status !== 409) {
          console.error(`[remote] pending rename of ${threadId} refused upstream (${res.status})`);
          this.journal?.remove(threadId, values.title);
          return false;
        }
        // Still busy: joinActiveRuns waited for the runs it saw (or 200 ms when it saw none).
        await pause(entry, 0);
      } catch (err) {
        if (this.closing.signal.aborted) return false;
        console.error(`[remote] pending rename of ${threadId}: retrying after`, err);
        await pause(entry, 1000);
      }
    }
  }

  /**
   * Waits for every pending or running run of the thread (the standard `runs.join`). A list the
   * server refuses outright (the thread deleted: 404; no longer the caller's: 403) is no reason to
   * wait: the write goes next, and its own refusal drops the rename.
   */
  private async joinActiveRuns(threadId: string, who: ThreadlineUser | null): Promise<void> {
    const tid = encodeURIComponent(threadId);
    const signal = this.closing.signal;
    const list = await this.upstream(`/threads/${tid}/runs?limit=20`, { method: "GET", signal }, who);
    if (!list.ok) {
      await list.body?.cancel();
      if (refusedOutright(list.status)) return;
      throw new Error(`listing runs answered ${list.status}`);
    }
    const runs = (await list.json()) as { run_id: string; status: string }[];
    let waited = false;
    for (const run of runs.filter((r) => ACTIVE.has(r.status))) {
      const joined = await this.upstream(`/threads/${tid}/runs/${encodeURIComponent(run.run_id)}/join`, { method: "GET", signal }, who);
      await joined.body?.cancel();
      waited ||= joined.ok;
    }
    // No run joined (none listed yet, or a join answered at once with an error): a pause, not a spin.
    if (!waited) await pauseFor(200, signal);
  }
}

/** A 4xx that is an answer (the thread gone, not the caller's, the body refused), not "busy" (409) or "slow down" (429). */
const refusedOutright = (status: number) => status >= 400 && status < 500 && status !== 409 && status !== 429;

const pendingAnswer = (values: RenameValues) => Response.json({ ...values, pending: true }, { headers: { "Cache-Control": "no-store" } });
