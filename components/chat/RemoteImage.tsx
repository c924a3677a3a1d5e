"use client";
import { useState } from "react";

function hostOf(src: string): string {
  try {
    return new URL(src, "http://relative.invalid").host.replace(/^relative\.invalid$/, "this site");
  } catch {
    return "an unknown address";
  }
}

/**
 * An image in an answer, not fetched until the reader asks. Fetching it at once would let a
 * prompt-injected `![](https://host/?data)` send the conversation's data to that host.
 */
export function RemoteImage({ src, alt }: { src?: string; alt?: string }) {
  const [load, setLoad] = useState(false);
  if (!src) return null;
  if (load) {
    // eslint-disable-next-line @next/next/no-img-element -- any host, chosen by the reader: next/image would proxy it
    return <img src={src} alt={alt ?? ""} referrerPolicy="no-referrer" className="my-2 max-h-96 max-w-full rounded" />;
  }
  return (
    <button
      type="button"
      data-testid="image-placeholder"
      onClick={() => setLoad(true)}
      title={src}
      className="my-1 inline-flex max-w-full items-center gap-1 rounded border border-dashed border-neutral-400 px-2 py-1 text-left text-xs text-neutral-600 hover:bg-neutral-100 dark:border-neutral-600 dark:text-neutral-400 dark:hover:bg-neutral-800"
    >
      <span className="truncate">
        Image{alt ? ` “${alt}”` : ""} from {hostOf(src)} — not loaded. Click to load.
      </span>
    </button>
  );
}
