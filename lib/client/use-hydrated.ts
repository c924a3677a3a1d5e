"use client";
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * False in the server's HTML and during hydration, true in every render after it (and from the
 * first render of a component mounted later). A component uses it to render what the server
 * rendered until the page is live, so hydration matches, then the browser's own view.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
