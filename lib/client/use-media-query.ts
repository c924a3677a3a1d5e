"use client";
import { useCallback, useSyncExternalStore } from "react";

/** The sidebar is a drawer below this width (components/shell/AppShell.tsx). */
export const DESKTOP_QUERY = "(min-width: 768px)";

/** Whether `query` matches now, following changes; `serverValue` on the server and in hydration. */
export function useMediaQuery(query: string, serverValue = true): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => serverValue);
}
