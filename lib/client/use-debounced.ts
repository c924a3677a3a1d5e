"use client";
import { useEffect, useState } from "react";

/** `value`, settled for `ms` (search-as-you-type without a request per keystroke). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return settled;
}
