"use client";
import * as RadixTooltip from "@radix-ui/react-tooltip";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Toaster } from "sonner";
import { useToastFocusReturn } from "@/lib/client/use-toast-focus-return";

/**
 * Toasts sit above the composer, never over the box being typed in: on a phone they span the width
 * (below sonner's 600 px), and up to ~1,100 px the bottom-right corner is still the composer's.
 * Right, not left: the sidebar's rows are on the left.
 * `--composer-height` comes from Composer; without a composer on the page, sonner's usual margins.
 */
const TOAST_OFFSET = { bottom: "calc(var(--composer-height, 8px) + 8px)" };

/** Query cache (one per tab / per server render), tooltips and toasts. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: 1 } },
      }),
  );
  useToastFocusReturn();
  return (
    <QueryClientProvider client={queryClient}>
      <RadixTooltip.Provider delayDuration={400}>{children}</RadixTooltip.Provider>
      <Toaster theme="system" position="bottom-right" closeButton offset={TOAST_OFFSET} mobileOffset={TOAST_OFFSET} />
    </QueryClientProvider>
  );
}
