import { LINK, MENU_BUTTON } from "./list-keyboard";

/**
 * What made a bare row mount its tooltip and menu (ConversationRow's `armed`). The event that
 * did it reached the bare elements, so it is replayed on the mounted ones: focus (the link was
 * replaced while focused), a pointer resting on the link (Radix opens a tooltip on pointermove),
 * or a press of the bare menu button (a tap arrives before the row re-renders).
 */
export type ArmedBy =
  | "pointer"
  | "focus"
  | { menu: "pointer"; pointerType: string }
  | { menu: "key"; key: string };

export function replayOnArmedRow(row: HTMLElement, by: ArmedBy): void {
  const link = row.querySelector<HTMLElement>(LINK);
  if (by === "focus") {
    const fell = !document.activeElement || document.activeElement === document.body;
    if (fell) link?.focus({ preventScroll: true });
    return;
  }
  if (by === "pointer") {
    // The row, not the new link: the browser gives a just-inserted element :hover only on the next move.
    if (row.matches(":hover")) link?.dispatchEvent(new PointerEvent("pointermove", { bubbles: true, pointerType: "mouse" }));
    return;
  }
  const button = row.querySelector<HTMLElement>(MENU_BUTTON);
  if (!button) return;
  if (by.menu === "pointer") {
    button.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, cancelable: true, button: 0, pointerType: by.pointerType }));
  } else {
    button.focus();
    button.dispatchEvent(new KeyboardEvent("keydown", { bubbles: true, cancelable: true, key: by.key }));
  }
}
