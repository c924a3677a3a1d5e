"use client";
import { defaultRangeExtractor, useVirtualizer, type Range, type VirtualItem } from "@tanstack/react-virtual";
import { Fragment, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, type ReactNode, type RefObject } from "react";
import type { ListItem } from "@/lib/client/types";
import { ROW_HEIGHT } from "./ConversationRow";
import { rowsToMountNow, windowEdges } from "./list-window";

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
}

const NOTHING_MOUNTED: VirtualItem[] = [];

/**
 * Right after a scroll only the rows on screen (and those already there) mount; the overscan
 * rows follow in a deferred render React can slice, so a scrolled screen blocks the page for
 * about half the mount and nothing on screen is left blank.
 */
function useMountOnScreenFirst(wanted: VirtualItem[], onScreen: { startIndex: number; endIndex: number } | null, keepIndex: number) {
  // Nothing mounted yet on the first render, so the switch from plain rows mounts the screen first too.
  const mounted = useDeferredValue(wanted, NOTHING_MOUNTED);
  const from = onScreen?.startIndex ?? -1;
  const to = onScreen?.endIndex ?? -1;
  // One row past each edge of the screen too: an arrow key's next row is always there.
  return useMemo(
    () => rowsToMountNow(wanted, mounted, from < 0 ? null : { startIndex: from - 1, endIndex: to + 1 }, keepIndex),
    [wanted, mounted, from, to, keepIndex],
  );
}

/** Plain rendering for short lists. Fixed item heights keep the switch to virtual seamless. */
export function PlainItems({ items, render }: Pick<ListItemsProps, "items" | "render">) {
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
export function VirtualItems({ items, render, scrollRef, onLastVisible, pendingEdge, focusEdge, keepIndex }: ListItemsProps) {
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
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read in render by design
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    rangeExtractor,
    overscan: 8,
  });
  const wanted = virtualizer.getVirtualItems();
  const visible = useMountOnScreenFirst(wanted, virtualizer.range, keepIndex);
  // The next page is asked for as the window (overscan included) nears the end, rendered or not.
  const wantedLast = windowEdges(wanted, keepIndex).last;
  useEffect(() => {
    if (wantedLast >= 0) onLastVisible(wantedLast);
  }, [wantedLast, onLastVisible]);
  const { first, last } = windowEdges(visible, keepIndex);
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
