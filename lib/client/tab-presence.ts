/**
 * Which of this browser's tabs are open, asked over the cross-tab channel: each page answers for
 * its own tab id (unsent.ts). Two uses. A send left by a tab that is no longer open (closed,
 * crashed, its send never confirmed) is put back into another tab's composer at once, instead of
 * after OTHER_TAB_GRACE_MS. And a tab the browser duplicated, whose sessionStorage (and so its tab
 * id) was copied from a tab still open, takes an id of its own, so neither takes the other's send
 * for its own. A reload is not a duplicate: the page before it is gone and cannot answer.
 */
import { broadcast, onTabMessage } from "./cross-tab";
import { renewTabId, tabId } from "./unsent";

/** How long an open tab has to answer: it does within milliseconds, in the background too (message events are not throttled as timers are). */
export const ANSWER_WAIT_MS = 250;

/** Answers other tabs asking whether this tab is open; returns the stop. Every page runs it (AppShell). */
export function answerTabQuestions(): () => void {
  void settledTabId();
  return onTabMessage((m) => {
    if (m.type === "tab-ping" && m.tab === tabId()) broadcast({ type: "tab-here", tab: m.tab, nonce: m.nonce });
  });
}

/** Is another page of this browser open as tab `tab`? Null when tabs cannot be asked (no BroadcastChannel). */
export function isTabOpen(tab: string, waitMs = ANSWER_WAIT_MS): Promise<boolean | null> {
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
    broadcast({ type: "tab-ping", tab, nonce });
  });
}

let settled: Promise<string | undefined> | null = null;

/** This tab's id, once no other open tab has it: a duplicated tab gets a new one. */
export function settledTabId(): Promise<string | undefined> {
  settled ??= (async () => {
    const id = tabId();
    return id && (await isTabOpen(id)) ? renewTabId() : id;
  })();
  return settled;
}
