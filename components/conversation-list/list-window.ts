import type { VirtualItem } from "@tanstack/react-virtual";

type Indexed = Pick<VirtualItem, "index">;

/** First and last index of a window; a kept Tab stop far from it is not part of it. */
export function windowEdges(items: readonly Indexed[], keepIndex: number) {
  const indexes = new Set(items.map((v) => v.index));
  const detached = (i: number) => i === keepIndex && !indexes.has(i - 1) && !indexes.has(i + 1) && indexes.size > 1;
  const kept = items.filter((v) => !detached(v.index));
  return { first: kept.length ? kept[0].index : -1, last: kept.length ? kept[kept.length - 1].index : -1 };
}

/**
 * Which items of the virtualiser's window (`wanted`, overscan included) to render in the render
 * a scroll forces: those on screen, those already mounted (`mounted`: the window React last
 * finished rendering), and the kept Tab stop. The rest follow in a deferred render. When the
 * two windows are the same, or nothing is measured yet, the whole window.
 */
export function rowsToMountNow<T extends Indexed>(
  wanted: readonly T[],
  mounted: readonly Indexed[],
  onScreen: { startIndex: number; endIndex: number } | null,
  keepIndex: number,
): readonly T[] {
  if (mounted === wanted || !onScreen) return wanted;
  const had = new Set(mounted.map((v) => v.index));
  return wanted.filter((v) => had.has(v.index) || (v.index >= onScreen.startIndex && v.index <= onScreen.endIndex) || v.index === keepIndex);
}
