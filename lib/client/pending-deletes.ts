import { deleteThreadKeepalive } from "./api-client";
import { threadIdFromPath } from "./use-active-thread";

/**
 * Deletes waiting out their undo toast. The DELETE request is only sent when the toast closes
 * without Undo; if the page goes away first, the waiting deletes are sent with `keepalive`.
 */
const waiting = new Map<string, () => void>();
let listening = false;

/**
 * Deletes this tab sent as it left a page (sessionStorage: the same tab's next page, a reload or a
 * Back across documents, reads them). That page may be made before the server has them gone.
 */
const LEFT_KEY = "threadline:deleted-on-leave";
const LEFT_FOR_MS = 120_000;

function readLeft(now: number): { id: string; at: number }[] {
  try {
    const raw: unknown = JSON.parse(sessionStorage.getItem(LEFT_KEY) ?? "[]");
    return Array.isArray(raw) ? raw.filter((e) => typeof e?.id === "string" && typeof e?.at === "number" && now - e.at < LEFT_FOR_MS) : [];
  } catch {
    return [];
  }
}

function flushOnPageHide() {
  const now = Date.now();
  const ids = [...waiting.keys()];
  for (const id of ids) deleteThreadKeepalive(id);
  waiting.clear();
  try {
    if (ids.length) sessionStorage.setItem(LEFT_KEY, JSON.stringify([...readLeft(now), ...ids.map((id) => ({ id, at: now }))]));
  } catch {
    // No storage (private mode quota): the next page may show a row until its delete lands.
  }
}

/** The conversations this tab deleted as it left its previous page, in the last two minutes. */
export function deletedOnLeaving(): string[] {
  return typeof sessionStorage === "undefined" ? [] : readLeft(Date.now()).map((e) => e.id);
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
