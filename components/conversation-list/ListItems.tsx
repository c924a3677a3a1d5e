"use client";
import { defaultRangeExtractor, useVirtualizer, type Range } from "@tanstack/react-virtual";
import { Fragment, useCallback, useEffect, useLayoutEffect, type ReactNode, type RefObject } from "react";
import type { ListItem } from "@/lib/client/types";
import { ROW_HEIGHT } from "./ConversationRow";

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
  // The virtualizer scrolls its element to this offset when it attaches: where the plain list was
  // scrolled to when it grew past VIRTUALIZE_ABOVE, not the top.
  const initialOffset = useCallback(() => scrollRef.current?.scrollTop ?? 0, [scrollRef]);
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
