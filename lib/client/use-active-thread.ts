"use client";
import { usePathname } from "next/navigation";

/** The thread id in the URL (`/c/<id>`), also after the new-chat page swapped its URL in place. */
export function threadIdFromPath(pathname: string | null): string | null {
  const m = /^\/c\/([^/?#]+)/.exec(pathname ?? "");
  return m ? decodeURIComponent(m[1]) : null;
}

export function useActiveThreadId(): string | null {
  return threadIdFromPath(usePathname());
}
