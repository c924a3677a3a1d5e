import type { TitleFact } from "@/lib/title";

/** What one tab tells the other tabs of the same browser. */
export type TabMessage =
  | { type: "server-title"; threadId: string; fact: TitleFact; at: number }
  | { type: "stream-title"; threadId: string; fact: TitleFact; at: number }
  | { type: "created"; threadId: string; createdAt: string }
  | { type: "activity"; threadId: string; at: string; busy: boolean; runId?: string }
  | { type: "starred"; threadId: string; starred: boolean }
  | { type: "deleted"; threadId: string }
  // Is the tab with this id open (and, with `messageId`, is that send still under way there)?
  // (tab-presence.ts) Its answer carries the question's nonce.
  | { type: "tab-ping"; tab: string; nonce: string; messageId?: string }
  | { type: "tab-here"; tab: string; nonce: string }
  // A tab put this unsent send back into its composer (use-draft.ts): the tab that sent it, its
  // send failed, must not offer to send it again.
  | { type: "unsent-taken"; messageId: string };

const CHANNEL = "threadline";
let channel: BroadcastChannel | null = null;
const listeners = new Set<(m: TabMessage) => void>();

function open(): BroadcastChannel | null {
  if (typeof window === "undefined" || typeof BroadcastChannel === "undefined") return null;
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (e: MessageEvent<TabMessage>) => {
      for (const l of listeners) l(e.data);
    };
  }
  return channel;
}

/** Sends to every OTHER tab (a BroadcastChannel never delivers to its sender). */
export function broadcast(message: TabMessage): void {
  open()?.postMessage(message);
}

export function onTabMessage(listener: (m: TabMessage) => void): () => void {
  open();
  listeners.add(listener);
  return () => listeners.delete(listener);
}
