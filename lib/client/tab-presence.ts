/**
 * Asking this browser's other tabs over the cross-tab channel; each page answers for its own tab
 * id (unsent.ts), once it has loaded. Two questions:
 * - Is a send still under way in the tab that made it? Yes: another tab leaves it to that tab,
 *   however long it takes. No answer (the tab closed or crashed, or its send failed or ended):
 *   another tab puts it back into its own composer within seconds instead of after
 *   OTHER_TAB_GRACE_MS (use-draft.ts asks a young send again once it is SILENT_MS old, since an
 *   open tab can be silent for a moment: still loading, or busy).
 * - Is a tab with this id open? A tab the browser duplicated starts with a copy of the original's
 *   sessionStorage, and so its tab id; finding the original open, it takes an id of its own. A
 *   reload is not a duplicate: the page before it is gone and cannot answer.
 */
import { broadcast, onTabMessage } from "./cross-tab";
import { renewTabId, sendsUnderWay, tabId } from "./unsent";

/** How long a tab has to answer. An open, idle one answers within milliseconds. */
export const ANSWER_WAIT_MS = 250;
/** Until a send is this old, silence is asked again before it is taken (use-draft.ts). */
export const SILENT_MS = 3_000;

/** Answers the other tabs' questions about this one; returns the stop. Every page runs it (AppShell). */
export function answerTabQuestions(): () => void {
  void settledTabId();
  return onTabMessage((m) => {
    if (m.type !== "tab-ping" || m.tab !== tabId()) return;
    if (m.messageId !== undefined && !sendsUnderWay.has(m.messageId)) return;
    broadcast({ type: "tab-here", tab: m.tab, nonce: m.nonce });
  });
}

function ask(tab: string, messageId: string | undefined, waitMs: number): Promise<boolean | null> {
  if (typeof window === "undefined" || typeof BroadcastChannel === "undefined") return Promise.resolve(null);
  const nonce = crypto.randomUUID();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(false);
    }, waitMs);
    const stop = onTabMessage((m) => {
      if (m.type !== "tab-here" || m.nonce !== nonce) return;
      clearTimeout(timer);
      stop();
      resolve(true);
    });
    broadcast({ type: "tab-ping", tab, nonce, ...(messageId !== undefined ? { messageId } : {}) });
  });
}

/** Is another page of this browser open as tab `tab`? False when none answered; null when tabs cannot be asked (no BroadcastChannel). */
export const isTabOpen = (tab: string, waitMs = ANSWER_WAIT_MS) => ask(tab, undefined, waitMs);

/** Is send `messageId` still under way in tab `tab`? False when that tab did not say so; null when tabs cannot be asked. */
export const isSendUnderWay = (tab: string, messageId: string, waitMs = ANSWER_WAIT_MS) => ask(tab, messageId, waitMs);

let settled: Promise<string | undefined> | null = null;

/** This tab's id, once no other open tab has it: a duplicated tab gets a new one. */
export function settledTabId(): Promise<string | undefined> {
  settled ??= (async () => {
    const id = tabId();
    return id && (await isTabOpen(id)) ? renewTabId() : id;
  })();
  return settled;
}
