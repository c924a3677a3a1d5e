import type { CSSProperties } from "react";

/**
 * Where the list's one tooltip or menu is anchored: an invisible box laid over `el`, positioned
 * inside the scroll container (which is `relative`), so it scrolls with the row it covers.
 */
export function anchorOver(container: HTMLElement, el: HTMLElement): CSSProperties {
  const box = el.getBoundingClientRect();
  const frame = container.getBoundingClientRect();
  return {
    position: "absolute",
    top: box.top - frame.top + container.scrollTop,
    left: box.left - frame.left + container.scrollLeft,
    width: box.width,
    height: box.height,
    pointerEvents: "none",
  };
}

export const NO_ANCHOR: CSSProperties = { position: "absolute", top: 0, left: 0, width: 0, height: 0, pointerEvents: "none" };
