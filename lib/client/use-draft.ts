"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { loadRecords, saveRecords, type RecordStorage } from "./recent-records";
import { ownsKept, safeLocalStorage } from "./storage-owner";
import { broadcast } from "./cross-tab";
import { releaseSentFiles, writeDraftFiles } from "./draft-files";
import { markTaken } from "./taken-sends";
import { isSendUnderWay, SILENT_MS, settledTabId } from "./tab-presence";
import { dropUnsent, joinUnsentAndDraft, peekUnsent, sendsUnderWay, tabId, takeUnsent, withUnsentLock } from "./unsent";

/** Drafts live in localStorage under one key, per conversation ("new" for the new-chat page). */
const STORE_KEY = "threadline:drafts";
export const NEW_CONVERSATION_DRAFT = "new";
/**
 * Bounds, so a forgotten pile of drafts never fills the origin's storage (shared with unsent
 * sends): the 50 most recent, and past 1,000,000 characters in all, drafts untouched for a day are
 * let go, the oldest first. A draft is never cut, and one typed in the last day is never let go
 * for its size: the one being written is kept whole up to what the storage holds.
 */
export const MAX_DRAFTS = 50;
export const DRAFTS_BUDGET_CHARS = 1_000_000;
export const DRAFT_KEPT_WHOLE_MS = 24 * 60 * 60 * 1000;

type Draft = { text: string; at: number };
type DraftStorage = RecordStorage;

const load = (storage: DraftStorage) =>
  loadRecords<Draft>(storage, STORE_KEY, (v) => {
    const d = v as Partial<Draft> | null;
    return typeof d?.text === "string" && typeof d.at === "number" ? { text: d.text, at: d.at } : null;
  });

export function readDraft(storage: DraftStorage, key: string): string {
  return load(storage)[key]?.text ?? "";
}

/**
 * Saves (or, for blank text, removes) one draft, whole. A removal lets nothing else go. A save
 * keeps the other drafts, newest first, while they fit in DRAFTS_BUDGET_CHARS beside this one (or
 * were written within DRAFT_KEPT_WHOLE_MS); should the storage still refuse it, the oldest others
 * go until this one is kept (or is the only one left, and the copy before it stays).
 */
export function writeDraft(storage: DraftStorage, key: string, text: string, now = Date.now()): void {
  const drafts = load(storage);
  if (!text.trim()) {
    if (!(key in drafts)) return;
    delete drafts[key];
    saveRecords(storage, STORE_KEY, drafts, MAX_DRAFTS);
    return;
  }
  delete drafts[key];
  const kept: [string, Draft][] = [[key, { text, at: now }]];
  let room = DRAFTS_BUDGET_CHARS - text.length;
  for (const [k, d] of Object.entries(drafts).sort((a, b) => b[1].at - a[1].at)) {
    if (kept.length >= MAX_DRAFTS) break;
    // Newest first: the first that neither fits nor is recent, and every older one, go.
    if (d.text.length > room && now - d.at >= DRAFT_KEPT_WHOLE_MS) break;
    kept.push([k, d]);
    room -= d.text.length;
  }
  while (!saveRecords(storage, STORE_KEY, Object.fromEntries(kept), MAX_DRAFTS) && kept.length > 1) kept.pop();
}

/**
 * A conversation deleted for good: its draft text and files, and a send of it the server never
 * got with that send's files, are not kept (they would otherwise wait for the bounds to push them out).
 */
export async function forgetConversationDrafts(storage: DraftStorage | null, threadId: string): Promise<void> {
  let dropped: ReturnType<typeof dropUnsent> = null;
  if (storage) {
    dropped = dropUnsent(storage, threadId);
    writeDraft(storage, threadId, "");
  }
  await Promise.all([writeDraftFiles(threadId, []), dropped?.files ? releaseSentFiles(dropped.messageId) : null]);
}

/**
 * What a composer showed under `from` when its own send made the conversation `to`: kept as `to`'s
 * draft (after any it had), and let go of by `from`'s unless another tab has typed there since.
 * Returns `to`'s draft.
 */
export function carryDraft(storage: DraftStorage, from: string, to: string, shown: string): string {
  const text = joinUnsentAndDraft(readDraft(storage, to), shown);
  writeDraft(storage, to, text);
  if (readDraft(storage, from) === shown) writeDraft(storage, from, "");
  return text;
}

const NONE: ReadonlySet<string> = new Set();

/** localStorage, while this page may keep things there (storage-owner.ts: not after a sign-out in another tab). */
export function browserStorage(): DraftStorage | null {
  const storage = safeLocalStorage();
  return storage && ownsKept(storage) ? storage : null;
}

/**
 * The composer's text, kept per conversation across switching and reloads until it is sent.
 * Starts empty on the server and first client render (no hydration mismatch), then restores,
 * with a send that never reached the server put back in front of it (lib/client/unsent.ts);
 * `delivered` are the ids of the messages the conversation already holds. The third value is
 * true once this key's draft has been restored, so an empty box before then means nothing yet;
 * the fourth is the unsent send taken back then, if any (its files are the composer's to restore).
 */
export function useDraft(key: string, delivered: ReadonlySet<string> = NONE): [string, (text: string) => void, boolean, TakenSend | null, boolean] {
  const [text, setText] = useState("");
  const [asking, setAsking] = useState(false);
  const [restored, setRestored] = useState<{ key: string; send: TakenSend | null } | null>(null);
  const deliveredRef = useRef(delivered);
  // The restore may decide seconds after mounting (another tab asked): by the latest messages then.
  useEffect(() => {
    deliveredRef.current = delivered;
  }, [delivered]);
  // The send taken for a key, should the effect run again for it (React's StrictMode does): the
  // record is gone from storage by then, and its files are still to be restored.
  const takenFor = useRef<{ key: string; send: TakenSend } | null>(null);
  // What the box shows, and under which key: a composer's key changes only when its own send makes
  // the new-conversation page's thread, and what was typed meanwhile stays in the box.
  const shown = useRef<{ key: string; text: string } | null>(null);
  useEffect(() => {
    let cancelled = false;
    const before = shown.current;
    const carried = before && before.key !== key ? before.text : "";
    const restore = (here: Parameters<typeof takeUnsent>[4]) => {
      const storage = browserStorage();
      let send: TakenSend | null = null;
      if (storage) {
        send = takeUnsent(storage, key, sendsUnderWay, deliveredRef.current, here);
        if (send) takenFor.current = { key, send };
        // The text is this composer's now: the tab whose send it was drops its Retry (ChatView).
        if (send && !send.delivered) broadcast({ type: "unsent-taken", messageId: send.messageId });
        else if (takenFor.current?.key === key) send = { ...takenFor.current.send, text: "" };
        const unsent = send && !send.delivered ? send.text : "";
        const draft = carried && before ? carryDraft(storage, before.key, key, carried) : readDraft(storage, key);
        const text = joinUnsentAndDraft(unsent, draft);
        if (unsent) writeDraft(storage, key, text);
        shown.current = { key, text };
        // Restoring from storage after hydration is the point of this effect.
        setText(text);
      }
      setRestored({ key, send });
      setAsking(false);
      return send;
    };
    // A send this page did not make: is it still under way in the tab that did (another tab; or,
    // with this tab's own id, the tab this one was duplicated from, should it have answered the
    // duplicate too late)? Asking takes up to ANSWER_WAIT_MS each time (beside this tab's own
    // check, settledTabId; at most SILENT_MS + 2 × ANSWER_WAIT_MS in all), so only when there is
    // such a send; the box is read-only meanwhile (the fifth value, for Composer), so nothing
    // typed is lost to the restore.
    const storage = browserStorage();
    const waiting = storage ? peekUnsent(storage, key) : null;
    const sender = waiting && !sendsUnderWay.has(waiting.messageId) ? waiting.tab : undefined;
    if (!waiting || !sender) restore({ tab: tabId() });
    else {
      // Read-only from this render on: a keystroke before the answer would be written over the kept draft.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setAsking(true);
      void (async () => {
        const ask = () => isSendUnderWay(sender, waiting.messageId);
        // Neither question waits for the other's answer.
        const [tab, first] = await Promise.all([settledTabId(), ask()]);
        let underWay = first;
        // An open tab can be silent for a moment (still loading, busy): another tab's young send
        // is asked about once more when it is SILENT_MS old.
        const young = Math.min(SILENT_MS, waiting.at + SILENT_MS - Date.now());
        if (underWay === false && sender !== tab && young > 0) {
          await new Promise((r) => setTimeout(r, young));
          if (cancelled) return;
          underWay = await ask();
        }
        // Under the record's lock, marked before the lock goes: the sending tab's Retry checks both
        // under the same lock before it sends.
        if (!cancelled)
          await withUnsentLock(key, async () => {
            const taken = cancelled ? null : restore({ tab, senderOpen: underWay, askedAbout: waiting.messageId });
            if (taken && !taken.delivered) await markTaken(taken.messageId);
          });
      })();
    }
    return () => {
      cancelled = true;
    };
  }, [key]);
  const update = useCallback(
    (next: string) => {
      setText(next);
      shown.current = { key, text: next };
      const storage = browserStorage();
      if (storage) writeDraft(storage, key, next);
    },
    [key],
  );
  const done = restored?.key === key;
  return [text, update, done, done ? restored.send : null, asking];
}

/** An unsent send a reload (or a return to its conversation) took back: see takeUnsent. */
export type TakenSend = NonNullable<ReturnType<typeof takeUnsent>>;
