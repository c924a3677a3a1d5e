/** Every TanStack Query key the web app uses. */
export const threadKeys = {
  all: ["threads"] as const,
  /** The sidebar list; `search` "" is the main list, anything else a title search. */
  list: (search: string) => ["threads", "list", search] as const,
  /** Starred threads (shown first whatever their age). */
  starred: () => ["threads", "starred"] as const,
  /** One thread's registry row, for an open conversation that no loaded page holds. */
  one: (threadId: string) => ["threads", "one", threadId] as const,
  /** This tab's per-row patches (live titles, optimistic edits, drafts, hidden rows). */
  patches: () => ["threads", "patches"] as const,
};
