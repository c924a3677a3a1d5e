import { deleteThreadKeepalive } from "./api-client";

/**
 * Deletes waiting out their undo toast. The DELETE request is only sent when the toast closes
 * without Undo; if the page goes away first, the waiting deletes are sent with `keepalive`.
 */
const waiting = new Map<string, () => void>();
let listening = false;

function flushOnPageHide() {
  for (const id of waiting.keys()) deleteThreadKeepalive(id);
  waiting.clear();
}

export function holdDelete(threadId: string, cancel: () => void): void {
  waiting.set(threadId, cancel);
  if (!listening && typeof window !== "undefined") {
    window.addEventListener("pagehide", flushOnPageHide);
    listening = true;
  }
}

/** Removes the entry; returns whether it was still waiting (so commit/undo run once). */
export function releaseDelete(threadId: string): boolean {
  return waiting.delete(threadId);
}
