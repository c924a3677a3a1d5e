"use client";
import { useEffect } from "react";
import { TZ_COOKIE } from "./calendar-cookie";
import { useHydrated } from "./use-hydrated";

/**
 * The calendar for date groups. While hydrating, the offset the server rendered with (so the
 * first client render matches its HTML); afterwards null, the browser's own calendar. The
 * browser reports its offset in a cookie so later server renders already use it.
 */
export function useCalendarOffset(rendered: number): number | null {
  const hydrated = useHydrated();
  useEffect(() => {
    document.cookie = `${TZ_COOKIE}=${-new Date().getTimezoneOffset()}; path=/; max-age=31536000; samesite=lax`;
  }, []);
  return hydrated ? null : rendered;
}
