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
  /** Calendar for date groups: the server-rendered zone until hydrated, then null (local). */
  tzOffsetMin: number | null;
  searchRef: RefObject<HTMLInputElement | null>;
  /** Called after following a row link (the mobile drawer closes). */
  onNavigate?: () => void;
}

const LINK = '[data-testid="thread-link"]';

export type Edge = "first" | "last";

function focusEdgeLink(container: HTMLElement, edge: Edge) {
  const links = container.querySelectorAll<HTMLElement>(LINK);
  (edge === "first" ? links[0] : links[links.length - 1])?.focus({ preventScroll: true });
}

/**
 * Up/Down (and Home/End) move between row links, so a long list needs no Tab marathon. In a
 * virtualised list the edge row may not be rendered yet: Home/End scroll there and leave the
 * focus as pending; VirtualItems focuses it once the edge is rendered.
 */
function moveFocusBetweenRows(e: React.KeyboardEvent<HTMLDivElement>, pendingEdge: RefObject<Edge | null>, virtual: boolean) {
  if (!["ArrowDown", "ArrowUp", "Home", "End"].includes(e.key)) return;
  const current = (e.target as HTMLElement).closest(LINK);
  if (!current) return;
  e.preventDefault();
  const container = e.currentTarget;
  if (e.key === "Home" || e.key === "End") {
    const edge: Edge = e.key === "Home" ? "first" : "last";
    const target = edge === "first" ? 0 : container.scrollHeight - container.clientHeight;
    // Already there (or nothing virtual): the edge row is rendered, and no scroll will re-render.
    if (!virtual || Math.abs(container.scrollTop - target) < 1) return focusEdgeLink(container, edge);
    pendingEdge.current = edge;
    container.scrollTop = target;
    return;
  }
  pendingEdge.current = null;
  const links = [...container.querySelectorAll<HTMLElement>(LINK)];
  const next = links[links.indexOf(current as HTMLElement) + (e.key === "ArrowDown" ? 1 : -1)];
  if (!next) return;
  next.focus();
  next.scrollIntoView({ block: "nearest" });
}

/** The sidebar: title search, date-grouped rows (virtualised when long), infinite scroll. */
export function ConversationList({ initialList, now, tzOffsetMin, searchRef, onNavigate }: ConversationListProps) {
  const router = useRouter();
  const activeId = useActiveThreadId();
  const [searchInput, setSearchInput] = useState("");
  const search = useDebounced(searchInput.trim(), 250);
  const { model, query } = useThreadList(search, initialList, now, tzOffsetMin);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = query;
  const [editingId, setEditingId] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const pendingEdge = useRef<Edge | null>(null);
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
        onKeyDown={(e) => moveFocusBetweenRows(e, pendingEdge, virtual)}
        className="min-h-0 flex-1 overflow-y-auto px-2 pb-4"
      >
        {virtual ? (
          <VirtualItems
            items={model.items}
            render={render}
            scrollRef={scrollRef}
            onLastVisible={onLastVisible}
            pendingEdge={pendingEdge}
            focusEdge={focusEdgeLink}
          />
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
