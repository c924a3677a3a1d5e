"use client";
import type { RefObject } from "react";
import { CloseIcon, SearchIcon } from "@/components/ui/icons";
import { isComposingKey } from "@/lib/client/composing";

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  /** ↓ in the box: on to the first result. */
  onArrowDown?: () => void;
}

/** Title search box (`$title_search`, answered by the server; in front of a LangGraph server by our forwarder); Ctrl/Cmd+K focuses it. */
export function SearchField({ value, onChange, inputRef, onArrowDown }: SearchFieldProps) {
  return (
    <div className="relative">
      <SearchIcon className="pointer-events-none absolute left-2.5 top-1/2 -translate-y-1/2 text-neutral-500" />
      <input
        ref={inputRef}
        type="search"
        data-testid="thread-search"
        aria-label="Search conversation titles"
        aria-keyshortcuts="Control+K Meta+K"
        // Escape clears a search first: the drawer around it must not close on that key.
        data-own-escape={value ? "" : undefined}
        placeholder="Search titles"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" && onArrowDown && !isComposingKey(e.nativeEvent)) {
            e.preventDefault();
            onArrowDown();
          }
          if (e.key === "Escape" && value && !isComposingKey(e.nativeEvent)) {
            e.preventDefault();
            e.stopPropagation();
            onChange("");
          }
        }}
        className="min-h-11 w-full rounded-md border border-neutral-300 bg-white py-1.5 pl-8 pr-14 text-sm outline-none placeholder:text-neutral-600 focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 md:min-h-0 dark:border-neutral-700 dark:bg-neutral-900 dark:placeholder:text-neutral-400 [&::-webkit-search-cancel-button]:hidden"
      />
      {value ? (
        <button
          type="button"
          aria-label="Clear search"
          onClick={() => onChange("")}
          className="absolute right-0 top-1/2 grid size-11 -translate-y-1/2 place-items-center rounded text-neutral-600 hover:bg-neutral-200 md:right-2 md:size-5 dark:text-neutral-300 dark:hover:bg-neutral-700"
        >
          <CloseIcon width={12} height={12} />
        </button>
      ) : (
        <kbd className="pointer-events-none absolute right-2 top-1/2 hidden -translate-y-1/2 rounded border border-neutral-300 px-1 text-[10px] text-neutral-600 md:block dark:border-neutral-700 dark:text-neutral-400">
          Ctrl K
        </kbd>
      )}
    </div>
  );
}
