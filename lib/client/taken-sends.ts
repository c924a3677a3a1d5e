/**
 * Which unsent sends another tab took back into its composer (use-draft.ts), kept in IndexedDB:
 * a write there is seen by every tab once its transaction completes, where a localStorage write
 * may reach another tab's copy later. The taking tab marks the send under the record's Web Lock
 * (unsent.ts `withUnsentLock`) before letting go, so the sending tab's Retry, checking under the
 * same lock, cannot miss it. Every call resolves; without IndexedDB nothing is marked (false).
 */
import { get, update } from "idb-keyval";
import { lazyKeyvalStore } from "./keyval-store";

/** Marks older than this are dropped: a Retry is pressed in the minutes after a send fails. */
const KEEP_MS = 24 * 60 * 60 * 1000;
const MARKS = "marks";

const store = lazyKeyvalStore("threadline-taken-sends", "marks");

/** Another tab has this send's text now. */
export async function markTaken(messageId: string, now = Date.now()): Promise<void> {
  const s = store();
  if (!s) return;
  try {
    await update<Record<string, number>>(
      MARKS,
      (old) => {
        const marks: Record<string, number> = {};
        for (const [id, at] of Object.entries(old && typeof old === "object" ? old : {})) if (now - at < KEEP_MS) marks[id] = at;
        marks[messageId] = now;
        return marks;
      },
      s,
    );
  } catch {
    // quota or a closed database: the broadcast and the record's absence still tell
  }
}

/** Whether a tab marked this send taken. */
export async function wasTaken(messageId: string): Promise<boolean> {
  const s = store();
  if (!s) return false;
  try {
    const marks: unknown = await get(MARKS, s);
    return Boolean(marks && typeof marks === "object" && messageId in marks);
  } catch {
    return false;
  }
}
