/**
 * A sent message the server has not confirmed yet. The composer empties on send, so until the
 * run exists on the server the text lives only in this page's memory; a reload, a crash or a
 * failed request in that window would lose it. So each send is kept in localStorage, per
 * conversation (the thread id, or "new" before the thread exists), until the run is created;
 * a page that finds one on opening the conversation puts the text back into the composer,
 * unless the server already has that message: in the thread, or in the input of a run of it that
 * has not ended (the request did arrive).
 */
import { loadRecords, saveRecords, type RecordStorage } from "./recent-records";

const STORE_KEY = "threadline:unsent";
/** Same bound as drafts: a pile of forgotten records never fills the origin's storage. */
const MAX_RECORDS = 50;

/**
 * How long a send made in another tab is left to that tab when the tabs cannot be asked whether it
 * is open (tab-presence.ts; no BroadcastChannel). Until its run is created only the sending page
 * knows whether it is still under way; a second tab opening the conversation in the meantime would
 * otherwise take the text and offer it to be sent again. Far longer than creating a run takes; a
 * record still there after it belongs to a tab that closed or failed, and is taken.
 */
export const OTHER_TAB_GRACE_MS = 60_000;

type UnsentStorage = RecordStorage;
/**
 * `tab`: the browser tab that sent it (sessionStorage, so a reload of that tab is still that tab).
 * `files`: it carried files, kept by message id in IndexedDB (draft-files.ts).
 */
export type Unsent = { messageId: string; text: string; at: number; tab?: string; files?: true };

const load = (storage: UnsentStorage) =>
  loadRecords<Unsent>(storage, STORE_KEY, (v) => {
    const r = v as Partial<Unsent> | null;
    if (!(typeof r?.messageId === "string" && typeof r.text === "string" && typeof r.at === "number")) return null;
    return { messageId: r.messageId, text: r.text, at: r.at, ...(typeof r.tab === "string" ? { tab: r.tab } : {}), ...(r.files === true ? { files: true as const } : {}) };
  });
const save = (storage: UnsentStorage, records: Record<string, Unsent>) => saveRecords(storage, STORE_KEY, records, MAX_RECORDS);

/** Keeps a send under `key` until `release`; a later send under the same key replaces it. True once it is in storage. */
export function holdUnsent(storage: UnsentStorage, key: string, messageId: string, text: string, opts: { now?: number; tab?: string; files?: boolean } = {}): boolean {
  if (!text.trim() && !opts.files) return false;
  const records = load(storage);
  records[key] = { messageId, text, at: opts.now ?? Date.now(), ...(opts.tab ? { tab: opts.tab } : {}), ...(opts.files ? { files: true as const } : {}) };
  return save(storage, records);
}

/**
 * Runs `f` holding this browser's lock on the unsent send of `key` (Web Locks), so a tab taking
 * another tab's send (use-draft.ts) and the sending tab's Retry (ChatView) never act on one record
 * at once. Where the browser has no Web Locks, `f` just runs.
 */
export async function withUnsentLock<T>(key: string, f: () => T | Promise<T>): Promise<T> {
  const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
  if (!locks?.request) return f();
  let ran = false;
  try {
    return (await locks.request(`threadline:unsent:${key}`, () => ((ran = true), f()))) as T;
  } catch (err) {
    // The lock refused (e.g. an opaque origin): do it unguarded rather than not at all.
    if (ran) throw err;
    return f();
  }
}

/** The new-conversation page's send got its thread: a reload now opens that thread's page. True if moved. */
export function moveUnsent(storage: UnsentStorage, from: string, to: string, messageId: string): boolean {
  const records = load(storage);
  if (records[from]?.messageId !== messageId) return false;
  records[to] = records[from];
  delete records[from];
  return save(storage, records);
}

/** The server has the message (its run was created): nothing left to keep. */
export function releaseUnsent(storage: UnsentStorage, key: string, messageId: string) {
  dropUnsent(storage, key, messageId);
}

/**
 * Removes the send kept under `key` (only if it is `messageId`'s, when given: a deleted
 * conversation's goes whatever it was). Returns the record dropped.
 */
export function dropUnsent(storage: UnsentStorage, key: string, messageId?: string): Unsent | null {
  const records = load(storage);
  const dropped = records[key] ?? null;
  if (!dropped || (messageId !== undefined && dropped.messageId !== messageId)) return null;
  delete records[key];
  save(storage, records);
  return dropped;
}

/** Ids of the messages this page has sent whose run the server has not confirmed, nor failed. */
export const sendsUnderWay = new Set<string>();

/** The send kept under `key`, left where it is (to know whether its tab must be asked about first). */
export function peekUnsent(storage: UnsentStorage, key: string): Unsent | null {
  return load(storage)[key] ?? null;
}

/**
 * The send to put back into the composer of conversation `key`, removing its record: none while
 * this page's own send of it is still under way (`inFlight`); none while the other tab that sent
 * it says it still is (`senderOpen`, the answer of tab-presence.ts about message `askedAbout`), or,
 * when that tab could not be asked or the answer is about another send, while the send is younger
 * than OTHER_TAB_GRACE_MS; and none when the conversation already holds the
 * message (`delivered`: its id is among the thread's messages or in the input of its pending or
 * running runs; the record is still removed, and returned marked delivered so its files can go
 * too). Null when none is taken.
 */
export function takeUnsent(
  storage: UnsentStorage,
  key: string,
  inFlight: ReadonlySet<string>,
  delivered: ReadonlySet<string>,
  here: { tab?: string; now?: number; senderOpen?: boolean | null; askedAbout?: string } = {},
): { messageId: string; text: string; delivered: boolean; files: boolean } | null {
  const records = load(storage);
  const record = records[key];
  if (!record || inFlight.has(record.messageId)) return null;
  const otherTab = record.tab !== undefined && here.tab !== undefined && record.tab !== here.tab;
  const answer = here.askedAbout === record.messageId ? here.senderOpen : null;
  // Under way in a tab that said so: left to it, even with this tab's id (a duplicate of it).
  if (answer === true) return null;
  if (otherTab && (answer ?? (here.now ?? Date.now()) - record.at < OTHER_TAB_GRACE_MS)) return null;
  delete records[key];
  save(storage, records);
  return { messageId: record.messageId, text: record.text, delivered: delivered.has(record.messageId), files: record.files === true };
}

/** What the composer shows when both an unsent message and a draft written after it are there. */
export function joinUnsentAndDraft(unsent: string, draft: string): string {
  if (!unsent) return draft;
  if (!draft.trim() || draft === unsent) return unsent;
  return `${unsent}\n\n${draft}`;
}

/** A run that has not ended: waiting for a slot (pending) or running. Its input is on the server. */
export function isUnfinishedRun(run: { status?: unknown }): boolean {
  return run.status === "pending" || run.status === "running";
}

/**
 * The run a page opened on a conversation follows when it did not start one itself (another tab
 * or device did): the running one, else the oldest still waiting (it starts next). Runs newest
 * first, as the API lists them. null when every run has ended.
 */
export function runToFollow(runs: readonly { run_id?: unknown; status?: unknown }[]): string | null {
  const running = runs.find((r) => r.status === "running");
  const next = running ?? runs.findLast((r) => r.status === "pending");
  return typeof next?.run_id === "string" ? next.run_id : null;
}

/**
 * Ids of the messages in runs' input (`kwargs.input.messages`): for a thread's runs that have not
 * ended, messages the server has although the thread's values may not hold them yet (a run
 * still waiting for a free slot has not written its input).
 */
export function inputMessageIds(runs: readonly unknown[]): string[] {
  return runs.flatMap((run) => {
    const messages = (run as { kwargs?: { input?: { messages?: unknown } | null } } | null)?.kwargs?.input?.messages;
    if (!Array.isArray(messages)) return [];
    return messages.flatMap((m) => {
      const id = (m as { id?: unknown } | null)?.id;
      return typeof id === "string" && id ? [id] : [];
    });
  });
}

const TAB_KEY = "threadline:tab";
let pageTab: string | undefined;

/**
 * This browser tab's id: kept in sessionStorage, so it outlives a reload. A tab the browser
 * duplicated starts with a copy of it; tab-presence.ts finds that out and calls renewTabId.
 */
export function tabId(): string | undefined {
  if (pageTab) return pageTab;
  try {
    if (typeof sessionStorage === "undefined") return undefined;
    pageTab = sessionStorage.getItem(TAB_KEY) ?? crypto.randomUUID();
    sessionStorage.setItem(TAB_KEY, pageTab);
    return pageTab;
  } catch {
    return undefined;
  }
}

/** A new id for this tab, which found another open tab with its id (a duplicate of it). */
export function renewTabId(): string | undefined {
  try {
    const id = crypto.randomUUID();
    sessionStorage.setItem(TAB_KEY, id);
    pageTab = id;
  } catch {
    // no sessionStorage: tabId() had none to copy either
  }
  return pageTab;
}
