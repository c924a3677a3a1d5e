"use client";
import * as RadixTooltip from "@radix-ui/react-tooltip";
import { useState, type ReactNode } from "react";

interface TooltipProps {
  content: ReactNode;
  children: ReactNode;
  side?: "top" | "right" | "bottom" | "left";
  /** Keeps the tooltip closed (the trigger stays mounted, so its focus is never lost). */
  disabled?: boolean;
}

/** A Radix tooltip with house styling; `children` must be one focusable element. */
export function Tooltip({ content, children, side = "right", disabled }: TooltipProps) {
  // Always controlled: `disabled` may flip while the trigger is on screen.
  const [open, setOpen] = useState(false);
  return (
    <RadixTooltip.Root open={open && !disabled} onOpenChange={setOpen}>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          side={side}
          sideOffset={6}
          collisionPadding={8}
          data-testid="tooltip"
          className="z-50 max-w-xs rounded-md bg-neutral-900 px-2 py-1 text-xs text-white shadow-md dark:bg-neutral-100 dark:text-neutral-900"
        >
          {content}
          <RadixTooltip.Arrow className="fill-neutral-900 dark:fill-neutral-100" />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
