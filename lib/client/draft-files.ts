/**
 * Files kept beside the text drafts, in IndexedDB (a message may carry 15 MiB, far past what
 * localStorage holds): the composer's files per conversation key, so switching conversations or
 * reloading keeps them as it keeps the text (use-draft.ts); and the files of a send the server has
 * not confirmed, per message id, so a send that never arrived comes back whole (unsent.ts keeps
 * its text and id). Every call resolves, never rejects: without IndexedDB (private mode, quota)
 * the page goes on with what it holds in memory.
 */
import { clear, del, delMany, get, set, update } from "idb-keyval";
import { lazyKeyvalStore } from "./keyval-store";
import type { ComposerAttachment } from "./attachments";
import { ownsKept } from "./storage-owner";

/** As many conversations' files as drafts are kept for (use-draft.ts), the most recent. */
export const MAX_DRAFT_FILE_SETS = 50;
/** Files of a send nobody came back for (its record was replaced or bounded away) go after this. */
export const SENT_FILES_TTL_MS = 7 * 24 * 60 * 60 * 1000;

type Kept = { files: ComposerAttachment[]; at: number };
const DRAFT = "draft:";
const SENT = "sent:";
/** Each kept key and when it was written, so pruning reads one small entry, not every file. */
const INDEX = "index";

const store = lazyKeyvalStore("threadline", "draft-files");

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

/** Set by signing out: the page is about to go, and nothing it still finishes may be kept. */
let forgotten = false;

async function write(key: string, files: readonly ComposerAttachment[], now: number): Promise<void> {
  const s = store();
  // Another tab signed out, or signed someone else in: this page reloads, and keeps nothing meanwhile.
  if (!s || forgotten || !ownsKept()) return;
  try {
    if (files.length) {
      await set(key, { files: [...files], at: now } satisfies Kept, s);
      // Someone signed out or in while it was being written: the clear may have run before it landed.
      if (!ownsKept()) return await del(key, s);
    } else await del(key, s);
    // The index (entry → when written) lets pruning decide without reading anyone's files.
    let stale: string[] = [];
    await update<Record<string, number>>(
      INDEX,
      (old) => {
        const index = { ...(old && typeof old === "object" ? old : {}) };
        if (files.length) index[key] = now;
        else delete index[key];
        stale = staleKeys(index, now);
        for (const k of stale) delete index[k];
        return index;
      },
      s,
    );
    if (stale.length) await delMany(stale, s);
  } catch {
    // quota or a closed database: the composer still holds the files
  }
}

/** Past the most recent draft sets, and sent files past their time. */
function staleKeys(index: Record<string, number>, now: number): string[] {
  const drafts = Object.entries(index)
    .filter(([k]) => k.startsWith(DRAFT))
    .sort((a, b) => b[1] - a[1]);
  const oldSends = Object.entries(index).filter(([k, at]) => k.startsWith(SENT) && now - at > SENT_FILES_TTL_MS);
  return [...drafts.slice(MAX_DRAFT_FILE_SETS), ...oldSends].map(([k]) => k);
}

/** The files waiting in the composer of conversation `key` (the thread id, or "new"). */
export const readDraftFiles = (key: string) => read(DRAFT + key);
/** Saves (or, with none, removes) the composer's files for `key`. */
export const writeDraftFiles = (key: string, files: readonly ComposerAttachment[], now = Date.now()) => write(DRAFT + key, files, now);

/** Keeps a send's files until its run exists, or a reload moves them back into the composer (then releaseSentFiles). */
export const holdSentFiles = (messageId: string, files: readonly ComposerAttachment[], now = Date.now()) =>
  files.length ? write(SENT + messageId, files, now) : Promise.resolve();

/** The server has the message: its files need not be kept. */
export const releaseSentFiles = (messageId: string) => write(SENT + messageId, [], Date.now());

/** A send found unsent after a reload: its files (none if it kept none). */
export const readSentFiles = (messageId: string) => read(SENT + messageId);

/**
 * Signing out: every kept file goes (the next person on this browser must not find them), and
 * this page keeps nothing more (a file still being read, or a send's files, would land after
 * the clear; the page is left for the sign-in page right after).
 */
export async function forgetDraftFiles(): Promise<void> {
  forgotten = true;
  await clearDraftFiles();
}

/** Every kept file goes: signing out, or another person's files found by the next one signed in (use-kept-owner.ts). */
export async function clearDraftFiles(): Promise<void> {
  const s = store();
  if (!s) return;
  try {
    await clear(s);
  } catch {
    // a closed database keeps nothing we could reach either
  }
}
