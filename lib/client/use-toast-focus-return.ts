"use client";
import { useEffect } from "react";

/**
 * Sonner gives the focus back to where it was before a toast took it, but only when focus leaves
 * the toasts: a clicked Undo (or ×) is removed while focused, which fires no blur, so the give-back
 * waits for sonner's next render and lands ~200 ms later on a page the user has moved on in,
 * closing a menu they just opened or taking the caret from the box they type in. Blurring the
 * clicked button right after its own handler makes sonner give the focus back at the click instead.
 */
export function useToastFocusReturn() {
  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      const button = e.target instanceof Element ? e.target.closest("[data-sonner-toast] button") : null;
      if (button instanceof HTMLElement) queueMicrotask(() => button.blur());
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
}
