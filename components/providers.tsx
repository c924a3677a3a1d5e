"use client";
import * as RadixTooltip from "@radix-ui/react-tooltip";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Toaster } from "sonner";

/** Query cache (one per tab / per server render), tooltips and toasts. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: 1 } },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <RadixTooltip.Provider delayDuration={400}>{children}</RadixTooltip.Provider>
      {/* On a phone (sonner's 600 px) toasts span the width: above the composer, never over it. */}
      <Toaster theme="system" position="bottom-left" closeButton mobileOffset={{ bottom: "calc(var(--composer-height, 0px) + 8px)" }} />
    </QueryClientProvider>
  );
}
