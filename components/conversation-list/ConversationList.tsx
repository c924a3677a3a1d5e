"use client";
import { useRouter } from "next/navigation";
import { useCallback, useMemo, useRef, useState, type RefObject } from "react";
import { threadIdFromPath, useActiveThreadId } from "@/lib/client/use-active-thread";
import { useDebounced } from "@/lib/client/use-debounced";
import { useRowActions } from "@/lib/client/use-row-actions";
import { useThreadList, type InitialList } from "@/lib/client/use-thread-list";
import { useTitleActions } from "@/lib/client/use-title-actions";
import type { ListItem } from "@/lib/client/types";
import { ConversationRow } from "./ConversationRow";
import { HEADER_HEIGHT, PlainItems, VIRTUALIZE_ABOVE, VirtualItems } from "./ListItems";
import { LoadMoreSentinel } from "./LoadMoreSentinel";
import type { RowActions } from "./row-actions";
import { SearchField } from "./SearchField";

interface ConversationListProps {
  initialList: InitialList;
  now: number;
  searchRef: RefObject<HTMLInputElement | null>;
  /** Called after following a row link (the mobile drawer closes). */
  onNavigate?: () => void;
}

/** Up/Down (and Home/End) move between row links, so a long list needs no Tab marathon. */
function moveFocusBetweenRows(e: React.KeyboardEvent<HTMLDivElement>) {
  if (!["ArrowDown", "ArrowUp", "Home", "End"].includes(e.key)) return;
  const current = (e.target as HTMLElement).closest('[data-testid="thread-link"]');
  if (!current) return;
  const links = [...e.currentTarget.querySelectorAll<HTMLElement>('[data-testid="thread-link"]')];
  const i = links.indexOf(current as HTMLElement);
  const next =
    e.key === "Home" ? links[0] : e.key === "End" ? links[links.length - 1] : links[i + (e.key === "ArrowDown" ? 1 : -1)];
  if (!next) return;
  e.preventDefault();
  next.focus();
  next.scrollIntoView({ block: "nearest" });
}

/** The sidebar: title search, date-grouped rows (virtualised when long), infinite scroll. */
export function ConversationList({ initialList, now, searchRef, onNavigate }: ConversationListProps) {
  const router = useRouter();
  const activeId = useActiveThreadId();
  const [searchInput, setSearchInput] = useState("");
  const search = useDebounced(searchInput.trim(), 250);
  const { model, query } = useThreadList(search, initialList, now);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = query;
  const [editingId, setEditingId] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { rename, regenerate } = useTitleActions();
  const leaveIfOpen = useCallback(
    (id: string) => {
      if (threadIdFromPath(window.location.pathname) === id) router.push("/");
    },
    [router],
  );
  const { setStarred, deleteWithUndo } = useRowActions({ onDeletedOpenThread: leaveIfOpen });

  const actions = useMemo<RowActions>(
    () => ({
      startEdit: setEditingId,
      endEdit: () => setEditingId(null),
      rename,
      setStarred: (id, starred) => void setStarred(id, starred),
      regenerate: (id) => void regenerate(id),
      remove: deleteWithUndo,
      navigated: () => onNavigate?.(),
    }),
    [rename, regenerate, setStarred, deleteWithUndo, onNavigate],
  );

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);
  const itemCount = model.items.length;
  const onLastVisible = useCallback((index: number) => {
    if (index >= itemCount - 12) loadMore();
  }, [itemCount, loadMore]);

  const render = (item: ListItem) =>
    item.kind === "header" ? (
      <h2
        data-testid="date-group"
        style={{ height: HEADER_HEIGHT }}
        className="flex items-end px-2 pb-1 text-xs font-medium text-neutral-500 dark:text-neutral-400"
      >
        {item.label}
      </h2>
    ) : (
      <ConversationRow row={item.row} active={item.row.id === activeId} editing={item.row.id === editingId} actions={actions} />
    );

  const virtual = model.rows.length > VIRTUALIZE_ABOVE;
  const searching = search !== "";
  return (
    <nav aria-label="Conversations" data-testid="conversation-list" className="flex min-h-0 flex-1 flex-col">
      <div className="px-2 pb-2">
        <SearchField value={searchInput} onChange={setSearchInput} inputRef={searchRef} />
      </div>
      <div
        ref={scrollRef}
        data-testid="thread-scroll"
        data-virtual={virtual ? "true" : "false"}
        onKeyDown={moveFocusBetweenRows}
        className="min-h-0 flex-1 overflow-y-auto px-2 pb-4"
      >
        {virtual ? (
          <VirtualItems items={model.items} render={render} scrollRef={scrollRef} onLastVisible={onLastVisible} />
        ) : (
          <>
            <PlainItems items={model.items} render={render} />
            {hasNextPage ? <LoadMoreSentinel rootRef={scrollRef} onVisible={loadMore} /> : null}
          </>
        )}
        {query.isPending || isFetchingNextPage ? (
          <p className="px-2 py-2 text-xs text-neutral-500" role="status">
            Loading…
          </p>
        ) : null}
        {query.isError ? (
          <p className="px-2 py-2 text-xs text-red-600" role="alert">
            Couldn&apos;t load conversations.{" "}
            <button type="button" className="underline" onClick={() => void query.refetch()}>
              Retry
            </button>
          </p>
        ) : null}
        {!query.isPending && model.rows.length === 0 ? (
          <p className="px-2 py-6 text-center text-sm text-neutral-500" data-testid="list-empty">
            {searching ? `No titles match “${search}”` : "No conversations yet"}
          </p>
        ) : null}
      </div>
    </nav>
  );
}
