"use client";
import { useEffect, useRef, type RefObject } from "react";

/** Calls `onVisible` when scrolled into view inside `rootRef` (infinite scroll for short lists). */
export function LoadMoreSentinel({ rootRef, onVisible }: { rootRef: RefObject<HTMLElement | null>; onVisible: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onVisible(), {
      root: rootRef.current,
      rootMargin: "200px",
    });
    io.observe(el);
    return () => io.disconnect();
  }, [rootRef, onVisible]);
  return <div ref={ref} aria-hidden className="h-px" />;
}
