import { deleteThreadKeepalive } from "./api-client";
import { threadIdFromPath } from "./use-active-thread";

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

/** Back (or Forward) to a conversation whose delete waits: that is its Undo (cancelHeldDelete). */
function cancelOnReturn() {
  const id = threadIdFromPath(window.location.pathname);
  if (id) cancelHeldDelete(id);
}

export function holdDelete(threadId: string, cancel: () => void): void {
  waiting.set(threadId, cancel);
  if (!listening && typeof window !== "undefined") {
    window.addEventListener("pagehide", flushOnPageHide);
    window.addEventListener("popstate", cancelOnReturn);
    listening = true;
  }
}

/** Removes the entry; returns whether it was still waiting (so commit/undo run once). */
export function releaseDelete(threadId: string): boolean {
  return waiting.delete(threadId);
}

/**
 * The user went back to a conversation whose delete is still waiting out its toast (browser Back
 * or Forward): the delete is called off, as its Undo would (the row shows again). Returns whether one was.
 */
export function cancelHeldDelete(threadId: string): boolean {
  const cancel = waiting.get(threadId);
  if (!cancel) return false;
  cancel();
  return true;
}
