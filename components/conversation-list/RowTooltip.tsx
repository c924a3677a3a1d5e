"use client";
import * as RadixTooltip from "@radix-ui/react-tooltip";
import { useEffect, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type PointerEvent, type RefObject } from "react";
import type { RowView } from "@/lib/client/types";
import { DESKTOP_QUERY, useMediaQuery } from "@/lib/client/use-media-query";
import { EMPTY_TITLE } from "@/lib/title";
import { TitleTooltipBody } from "@/components/ui/title-tooltip";
import { anchorOver, NO_ANCHOR } from "./list-anchor";
import { EARLIER_TITLE_NOTE } from "./ConversationRow";

/** Same timings as the app's Radix tooltip provider (components/providers.tsx). */
const OPEN_DELAY_MS = 400;
const SKIP_DELAY_MS = 300;
/** Time to cross the gap from the row to the tooltip (WCAG 1.4.13: the tooltip can be hovered). */
const CLOSE_GRACE_MS = 120;

/** What a row link calls; one stable object for the whole list, so rows stay memoised. */
export interface RowTipHandlers {
  pointerMove: (e: PointerEvent<HTMLElement>, id: string) => void;
  pointerLeave: (id: string) => void;
  pointerDown: () => void;
  focus: (e: FocusEvent<HTMLElement>, id: string) => void;
  hide: () => void;
}

export interface RowTip {
  id: string;
  anchor: CSSProperties;
}

/**
 * One tooltip for the whole list instead of a Radix Tooltip per row (each one a Popper, a
 * DismissableLayer and a document listener, for every row that scrolls in). It opens like Radix's
 * own trigger: after a resting pointer (at once when moving from one row's tooltip to the next),
 * on focus unless the focus came from a press, and closes on leave, press, blur, click, Escape or
 * scroll (the last two handled by Radix's content).
 */
export function useRowTooltip(containerRef: RefObject<HTMLElement | null>) {
  const [tip, setTip] = useState<RowTip | null>(null);
  const state = useRef({ openId: null as string | null, timerFor: null as string | null, closedAt: 0, pressed: false });
  const openTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const api = useMemo(() => {
    const s = state.current;
    const clearTimers = () => {
      clearTimeout(openTimer.current);
      clearTimeout(closeTimer.current);
      s.timerFor = null;
    };
    const show = (el: HTMLElement, id: string) => {
      clearTimers();
      const container = containerRef.current;
      if (!container || !el.isConnected) return;
      s.openId = id;
      setTip({ id, anchor: anchorOver(container, el) });
    };
    const hide = () => {
      clearTimers();
      if (s.openId) s.closedAt = Date.now();
      s.openId = null;
      setTip(null);
    };
    const handlers: RowTipHandlers = {
      pointerMove: (e, id) => {
        if (e.pointerType === "touch") return;
        clearTimeout(closeTimer.current);
        if (s.openId === id || s.timerFor === id || s.pressed) return;
        const el = e.currentTarget;
        if (s.openId || Date.now() - s.closedAt < SKIP_DELAY_MS) return show(el, id);
        clearTimeout(openTimer.current);
        s.timerFor = id;
        openTimer.current = setTimeout(() => show(el, id), OPEN_DELAY_MS);
      },
      pointerLeave: (id) => {
        if (s.timerFor === id) {
          clearTimeout(openTimer.current);
          s.timerFor = null;
        }
        if (s.openId === id) closeTimer.current = setTimeout(hide, CLOSE_GRACE_MS);
      },
      pointerDown: () => {
        hide();
        s.pressed = true;
        document.addEventListener("pointerup", () => (s.pressed = false), { once: true });
      },
      focus: (e, id) => {
        if (!s.pressed) show(e.currentTarget, id);
      },
      hide,
    };
    return { handlers, keepOpen: () => clearTimeout(closeTimer.current), hide };
  }, [containerRef]);

  useEffect(() => () => {
    clearTimeout(openTimer.current);
    clearTimeout(closeTimer.current);
  }, []);
  return { tip, ...api };
}

interface RowTooltipProps {
  tip: RowTip | null;
  /** The row it is open for, looked up at render so a title changing under it shows at once. */
  row: RowView | null;
  /** The list's search found this row by a title it had before (ConversationList). */
  foundByEarlierTitle: boolean;
  keepOpen: () => void;
  hide: () => void;
}

/** The list's tooltip: the hovered or focused row's whole title and its provenance. */
export function RowTooltip({ tip, row, foundByEarlierTitle, keepOpen, hide }: RowTooltipProps) {
  const open = tip !== null && row !== null;
  // In the drawer (narrow screens) the row spans the screen: no room beside it, so below it.
  const beside = useMediaQuery(DESKTOP_QUERY);
  return (
    <RadixTooltip.Root open={open} onOpenChange={(next) => (next ? undefined : hide())}>
      <RadixTooltip.Trigger asChild>
        {/* Only an anchor: laid over the row's link, it takes no pointer and no focus. */}
        <span aria-hidden="true" data-testid="row-tooltip-anchor" style={tip?.anchor ?? NO_ANCHOR} />
      </RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        {open ? (
          <RadixTooltip.Content
            side={beside ? "right" : "bottom"}
            align={beside ? "center" : "start"}
            sideOffset={6}
            collisionPadding={8}
            data-testid="tooltip"
            onPointerEnter={keepOpen}
            className="z-50 max-w-[min(20rem,calc(100vw-16px))] rounded-md bg-neutral-900 px-2 py-1 text-xs text-white shadow-md dark:bg-neutral-100 dark:text-neutral-900"
          >
            <TitleTooltipBody title={row.title ?? EMPTY_TITLE} source={row.source} note={foundByEarlierTitle ? EARLIER_TITLE_NOTE : undefined} />
            <RadixTooltip.Arrow className="fill-neutral-900 dark:fill-neutral-100" />
          </RadixTooltip.Content>
        ) : null}
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
