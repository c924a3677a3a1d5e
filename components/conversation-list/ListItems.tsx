"use client";
import { defaultRangeExtractor, useVirtualizer, type Range } from "@tanstack/react-virtual";
import { Fragment, useCallback, useEffect, useLayoutEffect, type ReactNode, type RefObject } from "react";
import type { ListItem } from "@/lib/client/types";
import { ROW_HEIGHT } from "./ConversationRow";
import { focusFellToPage } from "@/lib/client/focus-fell";
import { MENU_BUTTON, ROW, rowIdOf, rowLink, rowMenuButton } from "./list-keyboard";

const TITLE_INPUT = '[data-testid="title-input"]';

export const HEADER_HEIGHT = 30;
/** Above this many rows the list is virtualised. */
export const VIRTUALIZE_ABOVE = 60;

const sizeOf = (item: ListItem) => (item.kind === "header" ? HEADER_HEIGHT : ROW_HEIGHT);

interface ListItemsProps {
  items: ListItem[];
  render: (item: ListItem) => ReactNode;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** Index of the last item on screen (for infinite loading). */
  onLastVisible: (index: number) => void;
  /** Home/End asked for the first/last row; focus it once it is rendered. */
  pendingEdge: RefObject<"first" | "last" | null>;
  focusEdge: (container: HTMLElement, edge: "first" | "last") => void;
  /** An item kept rendered even when scrolled away: the list's Tab stop must always exist. */
  keepIndex: number;
  /** The row control that had the focus in the plain list this one replaced, to give it back. */
  focusHandover: RefObject<FocusHandover>;
  /** The search the rows on screen were rendered for (the last commit's), and the search now. */
  shownSearch: RefObject<string>;
  search: string;
}

/**
 * The row control that had the focus when the plain list went (the list grew past
 * VIRTUALIZE_ABOVE: the swap remounts every row), read just before its rows leave the DOM.
 */
export type FocusHandover = { id: string; on: "link" | "menu" } | null;

function focusedRowControl(container: HTMLElement): FocusHandover {
  const active = document.activeElement;
  // An open title editor takes the focus back itself (TitleEditor's resume).
  const id = container.contains(active) && !active?.closest(TITLE_INPUT) ? rowIdOf(active) : null;
  return id ? { id, on: active?.closest(MENU_BUTTON) ? "menu" : "link" } : null;
}

/** The first row at least partly in view, if any rows are rendered. */
function topRowId(container: HTMLElement): string | null {
  const top = container.getBoundingClientRect().top;
  const rows = container.querySelectorAll<HTMLElement>(ROW);
  return [...rows].find((r) => r.getBoundingClientRect().bottom > top + 1)?.dataset.threadId ?? null;
}

/**
 * Plain rendering for short lists. When it goes (the list turned virtual, or went away), it tells
 * `onLeave` which row control had the focus: a layout effect's cleanup runs before React removes
 * its rows.
 */
export function PlainItems({ items, render, scrollRef, onLeave }: Pick<ListItemsProps, "items" | "render" | "scrollRef"> & { onLeave: (focus: FocusHandover) => void }) {
  useLayoutEffect(
    () => () => {
      if (scrollRef.current) onLeave(focusedRowControl(scrollRef.current));
    },
    [scrollRef, onLeave],
  );
  return (
    <>
      {items.map((item) => (
        <Fragment key={item.key}>{render(item)}</Fragment>
      ))}
    </>
  );
}

/**
 * Only the items in (and near) view are in the DOM; keys are thread ids so scroll is kept. Items
 * are measured: a row is taller on touch screens, and while its rename shows an error.
 */
export function VirtualItems({ items, render, scrollRef, onLastVisible, pendingEdge, focusEdge, keepIndex, shownSearch, search, focusHandover }: ListItemsProps) {
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      if (keepIndex < 0 || indexes.includes(keepIndex)) return indexes;
      return [...indexes, keepIndex].sort((a, b) => a - b);
    },
    [keepIndex],
  );
  // Stable callbacks: the virtualizer recomputes every item's offset (O(items)) whenever
  // `getItemKey` changes, which a fresh arrow would do on every scroll frame.
  const estimateSize = useCallback((i: number) => sizeOf(items[i]), [items]);
  const getItemKey = useCallback((i: number) => items[i].key, [items]);
  const getScrollElement = useCallback(() => scrollRef.current, [scrollRef]);
  // The virtualizer reads this offset in its first render, while the plain list's rows are still in
  // the DOM, and scrolls there when it attaches: to the row the plain list showed at its top (by
  // index: rows are taller on touch screens than the estimate, and measured later), not the top.
  // After a new search, the top.
  const initialOffset = useCallback(() => {
    const container = scrollRef.current;
    const topId = container && shownSearch.current === search ? topRowId(container) : null;
    const at = topId ? items.findIndex((item) => item.kind === "row" && item.row.id === topId) : -1;
    return at < 0 ? 0 : items.slice(0, at).reduce((sum, item) => sum + sizeOf(item), 0);
  }, [scrollRef, shownSearch, search, items]);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in render by design
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    rangeExtractor,
    initialOffset,
    overscan: 8,
  });
  const visible = virtualizer.getVirtualItems();
  // A kept Tab stop far from the window is not part of it: leave it out of the window's edges.
  const indexes = new Set(visible.map((v) => v.index));
  const detached = (i: number) => i === keepIndex && !indexes.has(i - 1) && !indexes.has(i + 1) && indexes.size > 1;
  const windowed = visible.filter((v) => !detached(v.index));
  const last = windowed.length ? windowed[windowed.length - 1].index : -1;
  const first = windowed.length ? windowed[0].index : -1;
  useEffect(() => {
    if (last >= 0) onLastVisible(last);
  }, [last, onLastVisible]);
  // The focus handed over by the plain list, given back in the first render that has rows (the
  // virtualizer's second, within the same task: no key pressed meanwhile lands on the page), if it
  // is still on the page.
  useLayoutEffect(() => {
    const focus = focusHandover.current;
    const container = scrollRef.current;
    if (!focus || !container || !visible.length) return;
    focusHandover.current = null;
    const el = focus.on === "menu" ? rowMenuButton(container, focus.id) : rowLink(container, focus.id);
    if (focusFellToPage()) el?.focus({ preventScroll: true });
  });
  // Runs after every render: the edge row is focusable once the window reaches that edge.
  useLayoutEffect(() => {
    const edge = pendingEdge.current;
    const container = scrollRef.current;
    if (!edge || !container) return;
    if ((edge === "first" && first === 0) || (edge === "last" && last === items.length - 1)) {
      pendingEdge.current = null;
      focusEdge(container, edge);
    }
  });
  return (
    <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
      {visible.map((v) => (
        <div
          key={v.key}
          ref={virtualizer.measureElement}
          data-index={v.index}
          style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${v.start}px)` }}
        >
          {render(items[v.index])}
        </div>
      ))}
    </div>
  );
}
