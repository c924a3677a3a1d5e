"use client";
import type { RefObject } from "react";
import { CloseIcon, SearchIcon } from "@/components/ui/icons";
import { Tooltip } from "@/components/ui/tooltip";
import { usesStandardApi } from "@/lib/client/api-flavor";

export const SEARCH_NOT_OFFERED = "Title search needs Threadline's API; the LangGraph server this app runs on cannot search titles";

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
}

/** Title search box (server-side `$title_search`); Ctrl/Cmd+K focuses it. */
export function SearchField({ value, onChange, inputRef }: SearchFieldProps) {
  // A LangGraph server's thread search matches metadata/values exactly, never part of a title.
  if (usesStandardApi()) {
    return (
      <Tooltip content={SEARCH_NOT_OFFERED} side="bottom">
        <div className="relative" tabIndex={0} data-testid="thread-search-unavailable" aria-label={SEARCH_NOT_OFFERED}>
          <SearchIcon className="pointer-events-none absolute left-2.5 top-1/2 -translate-y-1/2 text-neutral-400" />
          <input
            type="search"
            disabled
            aria-label="Search conversation titles (not available)"
            placeholder="Search titles"
            className="pointer-events-none min-h-11 w-full rounded-md border border-neutral-200 bg-neutral-50 py-1.5 pl-8 text-sm text-neutral-500 md:min-h-0 dark:border-neutral-800 dark:bg-neutral-900"
          />
        </div>
      </Tooltip>
    );
  }
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
          if (e.key === "Escape" && value) {
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
