/**
 * Files kept beside the text drafts, in IndexedDB (a message may carry 15 MiB, far past what
 * localStorage holds): the composer's files per conversation key, so switching conversations or
 * reloading keeps them as it keeps the text (use-draft.ts); and the files of a send the server has
 * not confirmed, per message id, so a send that never arrived comes back whole (unsent.ts keeps
 * its text and id). Every call resolves, never rejects: without IndexedDB (private mode, quota)
 * the page goes on with what it holds in memory.
 */
import { clear, createStore, del, entries, get, set, type UseStore } from "idb-keyval";
import type { ComposerAttachment } from "./attachments";

/** As many conversations' files as drafts are kept for (use-draft.ts), the most recent. */
export const MAX_DRAFT_FILE_SETS = 50;
/** Files of a send nobody came back for (its record was replaced or bounded away) go after this. */
export const SENT_FILES_TTL_MS = 7 * 24 * 60 * 60 * 1000;

type Kept = { files: ComposerAttachment[]; at: number };
const DRAFT = "draft:";
const SENT = "sent:";

let opened: UseStore | null | undefined;
function store(): UseStore | null {
  if (opened === undefined) {
    try {
      opened = typeof indexedDB === "undefined" ? null : createStore("threadline", "draft-files");
    } catch {
      opened = null;
    }
  }
  return opened;
}

const isKept = (v: unknown): v is Kept => {
  const k = v as Partial<Kept> | null;
  return typeof k?.at === "number" && Array.isArray(k.files) && k.files.every((f) => typeof f?.id === "string" && typeof f.data === "string");
};

async function read(key: string): Promise<ComposerAttachment[]> {
  const s = store();
  if (!s) return [];
  try {
    const v: unknown = await get(key, s);
    return isKept(v) ? v.files : [];
  } catch {
    return [];
  }
}

async function write(key: string, files: readonly ComposerAttachment[], now: number): Promise<void> {
  const s = store();
  if (!s) return;
  try {
    if (files.length) await set(key, { files: [...files], at: now } satisfies Kept, s);
    else await del(key, s);
    await prune(s, now);
  } catch {
    // quota or a closed database: the composer still holds the files
  }
}

/** Keeps the most recent draft sets and drops sent files past their time. */
async function prune(s: UseStore, now: number) {
  const all = (await entries<string, unknown>(s)).filter(([k]) => typeof k === "string");
  const drafts = all.filter(([k]) => k.startsWith(DRAFT)).sort((a, b) => at(b[1]) - at(a[1]));
  const stale = [...drafts.slice(MAX_DRAFT_FILE_SETS), ...all.filter(([k, v]) => k.startsWith(SENT) && now - at(v) > SENT_FILES_TTL_MS)];
  for (const [k] of stale) await del(k, s);
}
const at = (v: unknown) => (isKept(v) ? v.at : 0);

/** The files waiting in the composer of conversation `key` (the thread id, or "new"). */
export const readDraftFiles = (key: string) => read(DRAFT + key);
/** Saves (or, with none, removes) the composer's files for `key`. */
export const writeDraftFiles = (key: string, files: readonly ComposerAttachment[], now = Date.now()) => write(DRAFT + key, files, now);

/** Keeps a send's files until its run exists (releaseSentFiles) or a reload takes them back (takeSentFiles). */
export const holdSentFiles = (messageId: string, files: readonly ComposerAttachment[], now = Date.now()) =>
  files.length ? write(SENT + messageId, files, now) : Promise.resolve();

/** The server has the message: its files need not be kept. */
export const releaseSentFiles = (messageId: string) => write(SENT + messageId, [], Date.now());

/** A send found unsent after a reload: its files, removed from the store (none if it kept none). */
export async function takeSentFiles(messageId: string): Promise<ComposerAttachment[]> {
  const files = await read(SENT + messageId);
  if (files.length) await releaseSentFiles(messageId);
  return files;
}

/** Signing out: every kept file goes (the next person on this browser must not find them). */
export async function forgetDraftFiles(): Promise<void> {
  const s = store();
  if (!s) return;
  try {
    await clear(s);
  } catch {
    // a closed database keeps nothing we could reach either
  }
}
