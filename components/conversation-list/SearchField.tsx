"use client";
import type { RefObject } from "react";
import { CloseIcon, SearchIcon } from "@/components/ui/icons";

interface SearchFieldProps {
  value: string;
  onChange: (value: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
}

/** Title search box (server-side `$title_search`); Ctrl/Cmd+K focuses it. */
export function SearchField({ value, onChange, inputRef }: SearchFieldProps) {
  return (
    <div className="relative">
      <SearchIcon className="pointer-events-none absolute left-2.5 top-1/2 -translate-y-1/2 text-neutral-400" />
      <input
        ref={inputRef}
        type="search"
        data-testid="thread-search"
        aria-label="Search conversation titles"
        aria-keyshortcuts="Control+K Meta+K"
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
        className="w-full rounded-md border border-neutral-200 bg-white py-1.5 pl-8 pr-14 text-sm outline-none placeholder:text-neutral-400 focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 dark:border-neutral-700 dark:bg-neutral-900 [&::-webkit-search-cancel-button]:hidden"
      />
      {value ? (
        <button
          type="button"
          aria-label="Clear search"
          onClick={() => onChange("")}
          className="absolute right-2 top-1/2 grid size-5 -translate-y-1/2 place-items-center rounded text-neutral-500 hover:bg-neutral-200 dark:hover:bg-neutral-700"
        >
          <CloseIcon width={12} height={12} />
        </button>
      ) : (
        <kbd className="pointer-events-none absolute right-2 top-1/2 hidden -translate-y-1/2 rounded border md:block border-neutral-200 px-1 text-[10px] text-neutral-400 dark:border-neutral-700">
          Ctrl K
        </kbd>
      )}
    </div>
  );
}
