import type { KeyboardEvent, RefObject } from "react";

export const LINK = '[data-testid="thread-link"]';
export const MENU_BUTTON = '[data-testid="row-menu-button"]';
export const ROW = '[data-testid="thread-row"]';

export type Edge = "first" | "last";

export function focusEdgeLink(container: HTMLElement, edge: Edge) {
  const links = container.querySelectorAll<HTMLElement>(LINK);
  (edge === "first" ? links[0] : links[links.length - 1])?.focus({ preventScroll: true });
}

/** The link of the row `threadId` inside `container`, when that row is rendered. */
export function rowLink(container: HTMLElement, threadId: string): HTMLElement | null {
  return container.querySelector<HTMLElement>(`${ROW}[data-thread-id="${CSS.escape(threadId)}"] ${LINK}`);
}

/** The "…" button of the row `threadId` inside `container`, when that row is rendered. */
export function rowMenuButton(container: HTMLElement, threadId: string): HTMLElement | null {
  return container.querySelector<HTMLElement>(`${ROW}[data-thread-id="${CSS.escape(threadId)}"] ${MENU_BUTTON}`);
}

/** The row after `threadId` (or before it, for the last row): where focus goes when it is deleted. */
export function neighbourRowId(container: HTMLElement, threadId: string): string | null {
  const rows = [...container.querySelectorAll<HTMLElement>(ROW)];
  const at = rows.findIndex((r) => r.dataset.threadId === threadId);
  if (at < 0) return null;
  return (rows[at + 1] ?? rows[at - 1])?.dataset.threadId ?? null;
}

/** The thread id of the row a focus or key event happened in (its link or its menu button). */
export function rowIdOf(target: EventTarget | null): string | null {
  const el = target as HTMLElement | null;
  if (!el?.closest?.(`${LINK}, ${MENU_BUTTON}`)) return null;
  return el.closest<HTMLElement>(ROW)?.dataset.threadId ?? null;
}

/**
 * The list is one Tab stop (roving focus): Up/Down move between row links, Home/End go to the
 * ends, → reaches the row's menu button and ← comes back. In a virtualised list the edge row
 * may not be rendered yet: Home/End scroll there and leave the focus as pending; VirtualItems
 * focuses it once the edge is rendered.
 */
export function moveFocusInList(e: KeyboardEvent<HTMLDivElement>, pendingEdge: RefObject<Edge | null>, virtual: boolean) {
  const target = e.target as HTMLElement;
  const onLink = target.closest(LINK);
  const onMenu = target.closest(MENU_BUTTON);
  if (!onLink && !onMenu) return;
  const row = target.closest<HTMLElement>(ROW);
  if (e.key === "ArrowRight" && onLink) {
    e.preventDefault();
    return row?.querySelector<HTMLElement>(MENU_BUTTON)?.focus();
  }
  if (e.key === "ArrowLeft" && onMenu) {
    e.preventDefault();
    return row?.querySelector<HTMLElement>(LINK)?.focus();
  }
  if (!["ArrowDown", "ArrowUp", "Home", "End"].includes(e.key)) return;
  e.preventDefault();
  const container = e.currentTarget;
  if (e.key === "Home" || e.key === "End") {
    const edge: Edge = e.key === "Home" ? "first" : "last";
    const scrollTarget = edge === "first" ? 0 : container.scrollHeight - container.clientHeight;
    // Already there (or nothing virtual): the edge row is rendered, and no scroll will re-render.
    // A plain list is scrolled there all the same, so the row is seen (and the end's sentinel loads more).
    if (!virtual || Math.abs(container.scrollTop - scrollTarget) < 1) {
      container.scrollTop = scrollTarget;
      return focusEdgeLink(container, edge);
    }
    pendingEdge.current = edge;
    container.scrollTop = scrollTarget;
    return;
  }
  pendingEdge.current = null;
  const links = [...container.querySelectorAll<HTMLElement>(LINK)];
  const current = row?.querySelector<HTMLElement>(LINK);
  const next = current ? links[links.indexOf(current) + (e.key === "ArrowDown" ? 1 : -1)] : undefined;
  if (!next) return;
  next.focus();
  next.scrollIntoView({ block: "nearest" });
}
