"use client";
import { useEffect, useState } from "react";

/**
 * "Now" for date grouping, ticking every minute. Starts from the server's render time so the
 * first client render matches the server HTML (no hydration flash of regrouped rows).
 */
export function useNow(initial: number, everyMs = 60_000): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    tick();
    const id = window.setInterval(tick, everyMs);
    return () => window.clearInterval(id);
  }, [everyMs]);
  return now;
}
