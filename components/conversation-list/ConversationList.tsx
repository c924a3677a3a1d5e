"use client";
import { useRouter } from "next/navigation";
import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type RefObject } from "react";
import { focusFellToPage } from "@/lib/client/focus-fell";
import { standardSearchScan, usesStandardApi } from "@/lib/client/api-flavor";
import { threadIdFromPath, useActiveThreadId } from "@/lib/client/use-active-thread";
import { useDebounced } from "@/lib/client/use-debounced";
import { useRowActions } from "@/lib/client/use-row-actions";
import { useThreadList, type InitialList } from "@/lib/client/use-thread-list";
import { useTitleActions } from "@/lib/client/use-title-actions";
import type { ListItem, RowView } from "@/lib/client/types";
import { queryWords, titleMatches } from "@/lib/title/search-words";
import { TitleHistoryPanel } from "@/components/title-history/TitleHistoryPanel";
import { ConversationRow } from "./ConversationRow";
import { anchorOver } from "./list-anchor";
import { focusEdgeLink, moveFocusInList, neighbourRowId, rowIdOf, rowLink, rowMenuButton, type Edge } from "./list-keyboard";
import { HEADER_HEIGHT, PlainItems, VIRTUALIZE_ABOVE, VirtualItems, type FocusHandover } from "./ListItems";
import { LoadMoreSentinel } from "./LoadMoreSentinel";
import type { RowActions } from "./row-actions";
import { RowMenu, type RowMenuActions } from "./RowMenu";
import { RowTooltip, useRowTooltip } from "./RowTooltip";
import { SearchField } from "./SearchField";
import { settleLeftEdit, type KeptEdit } from "./TitleEditor";

interface ConversationListProps {
  initialList: InitialList;
  now: number;
  /** Calendar for date groups: the server-rendered zone until hydrated, then null (local). */
  tzOffsetMin: number | null;
  searchRef: RefObject<HTMLInputElement | null>;
  /** Called after following a row link (the mobile drawer closes). */
  onNavigate?: () => void;
  /**
   * Called after a delete, or a rename that offered Undo, made in this list: the mobile drawer
   * closes, so the toast with its Undo is in reach (a modal drawer keeps taps and focus from
   * anything outside it).
   */
  onUndoable?: () => void;
}

/** `el` is rendered and at least partly inside the scroll container's visible box. */
function inView(container: HTMLElement, el: HTMLElement | null): boolean {
  if (!el) return false;
  const box = el.getBoundingClientRect();
  const frame = container.getBoundingClientRect();
  return box.bottom > frame.top && box.top < frame.bottom;
}

/** Focus to give a row link after the next render; `always` = even if something else holds focus. */
type FocusRequest = { threadId: string; always: boolean };

/** The sidebar: title search, date-grouped rows (virtualised when long), infinite scroll. */
export function ConversationList({ initialList, now, tzOffsetMin, searchRef, onNavigate, onUndoable }: ConversationListProps) {
  const router = useRouter();
  const activeId = useActiveThreadId();
  const [searchInput, setSearchInput] = useState("");
  const search = useDebounced(searchInput.trim(), 250);
  const { model, query } = useThreadList(search, initialList, now, tzOffsetMin, activeId);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = query;
  const [editingId, setEditingId] = useState<string | null>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const pendingEdge = useRef<Edge | null>(null);
  const focusRequest = useRef<FocusRequest | null>(null);
  const { rename, regenerate } = useTitleActions();
  // Deleting the open conversation leaves it for the new-chat page; its Undo comes back there,
  // unless the user has gone somewhere else meanwhile (a draft begun on the new-chat page is kept
  // as that page's draft, as on any navigation).
  const leaveIfOpen = useCallback(
    (id: string) => {
      if (threadIdFromPath(window.location.pathname) !== id) return null;
      const openedAt = window.location.pathname;
      router.push("/");
      // Still on its way to "/" when Undo is pressed, or there: back to the conversation.
      return () => {
        const at = window.location.pathname;
        if (at === "/" || at === openedAt) router.push(openedAt);
      };
    },
    [router],
  );
  const { setStarred, deleteWithUndo } = useRowActions({ onDeletedOpenThread: leaveIfOpen });
  // The list's one tooltip, one menu and one history dialog, each opened for a row.
  const listId = useId();
  const { tip, handlers: tipHandlers, keepOpen: keepTipOpen, hide: hideTip } = useRowTooltip(scrollRef);
  const [menu, setMenu] = useState<{ id: string; anchor: CSSProperties } | null>(null);
  const [history, setHistory] = useState<{ id: string; open: boolean } | null>(null);
  const historyReturn = useRef<HTMLElement | null>(null);
  const standardApi = usesStandardApi();
  const searchScan = standardSearchScan();

  const keptEdit = useRef<{ id: string; edit: KeptEdit } | null>(null);
  // Unmounting runs this list's cleanups before its rows': an edit kept after it is left for good.
  const mounted = useRef(false);
  useLayoutEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const actions = useMemo<RowActions>(
    () => ({
      startEdit: (id) => {
        keptEdit.current = null;
        setEditingId(id);
      },
      keepEdit: (id, edit) => {
        keptEdit.current = { id, edit };
        queueMicrotask(() => {
          if (!mounted.current && keptEdit.current?.edit === edit) void settleLeftEdit(edit, (raw) => rename(id, raw));
        });
      },
      // Read, not taken: React may run a state initializer twice (Strict Mode).
      resumeEdit: (id) => (keptEdit.current?.id === id ? keptEdit.current.edit : null),
      endEdit: (id, exit) => {
        keptEdit.current = null;
        // Keys (Enter/Esc) return focus to the row; a blur only if focus fell to the page; focus
        // that left for another element (a click on the composer, another row) stays there.
        if (exit !== "away") focusRequest.current = { threadId: id, always: exit === "key" };
        setEditingId(null);
      },
      rename: async (id, raw) => {
        const result = await rename(id, raw);
        if (result.ok && result.undo) onUndoable?.();
        return result;
      },
      setStarred: (id, starred) => void setStarred(id, starred),
      regenerate: (id) => void regenerate(id),
      remove: (id, title) => {
        const next = scrollRef.current ? neighbourRowId(scrollRef.current, id) : null;
        if (next) focusRequest.current = { threadId: next, always: true };
        deleteWithUndo(id, title);
        onUndoable?.();
      },
      menuPress: (id, button, how) => {
        const container = scrollRef.current;
        if (!container) return;
        const anchor = anchorOver(container, button);
        hideTip();
        setMenu((open) => (open?.id === id ? (how === "toggle" ? null : open) : { id, anchor }));
      },
      navigated: () => onNavigate?.(),
    }),
    [rename, regenerate, setStarred, deleteWithUndo, onNavigate, onUndoable, hideTip],
  );
  const menuActions = useMemo<RowMenuActions>(
    () => ({
      rename: actions.startEdit,
      setStarred: actions.setStarred,
      regenerate: actions.regenerate,
      remove: actions.remove,
      history: (id) => {
        historyReturn.current = scrollRef.current ? rowMenuButton(scrollRef.current, id) : null;
        setHistory({ id, open: true });
      },
    }),
    [actions],
  );
  const closeMenu = useCallback(() => setMenu(null), []);
  const refocusMenuButton = useCallback((id: string) => {
    if (scrollRef.current) rowMenuButton(scrollRef.current, id)?.focus();
  }, []);

  // Growing past VIRTUALIZE_ABOVE swaps the plain list for the virtual one, which remounts every
  // row: the virtual one starts at the plain one's top row, and gives the focus back to the row
  // control that had it, handed over as the plain rows go (ListItems).
  const virtual = model.rows.length > VIRTUALIZE_ABOVE;
  const handover = useRef<FocusHandover>(null);
  const onPlainLeave = useCallback((focus: FocusHandover) => (handover.current = focus), []);
  // A new search (or none again) is a new list: it starts at its top. Its pages may come from the
  // cache at once (typing back to an earlier search), into a list that stays virtual and would
  // otherwise keep the old scroll offset, hiding the best matches above it.
  const shownSearch = useRef(search);
  useLayoutEffect(() => {
    if (shownSearch.current === search) return;
    shownSearch.current = search;
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
  }, [search]);

  // Focus is never dropped to the page: after a rename or a delete it goes to a row.
  useLayoutEffect(() => {
    const request = focusRequest.current;
    const container = scrollRef.current;
    if (!request || !container) return;
    const link = rowLink(container, request.threadId);
    if (!link) return;
    focusRequest.current = null;
    if (request.always || focusFellToPage()) link.focus();
  });

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);
  const itemCount = model.items.length;
  const onLastVisible = useCallback((index: number) => {
    if (index >= itemCount - 12) loadMore();
  }, [itemCount, loadMore]);

  // The one row link in the Tab order: the last focused row, else the open one, else the first.
  const tabStopId =
    (focusedId && model.byId.has(focusedId) && focusedId) ||
    (activeId && model.byId.has(activeId) && activeId) ||
    model.rows[0]?.id ||
    null;
  const tabStopIndex = tabStopId ? model.items.findIndex((i) => i.kind === "row" && i.row.id === tabStopId) : -1;

  // A search finds current and former titles; a row whose title shown does not match was found by
  // an earlier one (or its title changed since), which the row says, else it looks like a miss.
  const searchWords = useMemo(() => queryWords(search), [search]);
  // A LangGraph server's search matches current titles only, and keeps no history to point to.
  const foundByEarlierTitle = (row: RowView) => !standardApi && searchWords.length > 0 && !titleMatches(row.title ?? "", searchWords);

  const render = (item: ListItem) =>
    item.kind === "header" ? (
      <h2
        data-testid="date-group"
        style={{ height: HEADER_HEIGHT }}
        className="flex items-end px-2 pb-1 text-xs font-medium text-neutral-600 dark:text-neutral-400"
      >
        {item.label}
      </h2>
    ) : (
      <ConversationRow
        row={item.row}
        active={item.row.id === activeId}
        editing={item.row.id === editingId}
        tabbable={item.row.id === tabStopId}
        menuOpen={item.row.id === menu?.id}
        foundByEarlierTitle={foundByEarlierTitle(item.row)}
        listId={listId}
        actions={actions}
        tip={tipHandlers}
      />
    );

  const searching = search !== "";
  const tipRow = (tip && editingId !== tip.id && model.byId.get(tip.id)) || null;
  return (
    <nav aria-label="Conversations" data-testid="conversation-list" data-conversation-list="" className="flex min-h-0 flex-1 flex-col">
      <div className="px-2 pb-2">
        <SearchField
          value={searchInput}
          onChange={setSearchInput}
          inputRef={searchRef}
          onArrowDown={() => scrollRef.current && focusEdgeLink(scrollRef.current, "first")}
        />
      </div>
      <div
        ref={scrollRef}
        data-testid="thread-scroll"
        data-virtual={virtual ? "true" : "false"}
        onKeyDown={(e) => moveFocusInList(e, pendingEdge, virtual)}
        onScroll={() => {
          // A menu whose row scrolled out of view (or out of the rendered window) closes.
          const container = scrollRef.current;
          if (menu && container && !inView(container, rowMenuButton(container, menu.id))) setMenu(null);
        }}
        onFocus={(e) => {
          const id = rowIdOf(e.target);
          if (id) setFocusedId(id);
        }}
        // `relative`: the tooltip's and the menu's anchors are placed in its scrolled coordinates.
        className="relative min-h-0 flex-1 overflow-y-auto px-2 pb-4"
      >
        <RowTooltip
          tip={tip}
          row={tipRow}
          foundByEarlierTitle={tipRow !== null && foundByEarlierTitle(tipRow)}
          keepOpen={keepTipOpen}
          hide={hideTip}
        />
        <RowMenu
          listId={listId}
          row={(menu && model.byId.get(menu.id)) || null}
          anchor={menu?.anchor ?? null}
          close={closeMenu}
          refocus={refocusMenuButton}
          actions={menuActions}
        />
        {virtual ? (
          <VirtualItems
            items={model.items}
            render={render}
            scrollRef={scrollRef}
            onLastVisible={onLastVisible}
            pendingEdge={pendingEdge}
            focusEdge={focusEdgeLink}
            keepIndex={tabStopIndex}
            shownSearch={shownSearch}
            search={search}
            focusHandover={handover}
          />
        ) : (
          <>
            <PlainItems items={model.items} render={render} scrollRef={scrollRef} onLeave={onPlainLeave} />
            {hasNextPage ? <LoadMoreSentinel rootRef={scrollRef} onVisible={loadMore} /> : null}
          </>
        )}
        {query.isPending || isFetchingNextPage ? (
          <p className="px-2 py-2 text-xs text-neutral-600 dark:text-neutral-400" role="status">
            Loading…
          </p>
        ) : null}
        {query.isError ? (
          <p className="px-2 py-2 text-xs text-red-700 dark:text-red-400" role="alert">
            Couldn&apos;t load conversations.{" "}
            <button type="button" className="underline" onClick={() => void query.refetch()}>
              Retry
            </button>
          </p>
        ) : null}
        {!query.isPending && model.rows.length === 0 ? (
          <p className="line-clamp-4 px-2 py-6 text-center text-sm text-neutral-600 [overflow-wrap:anywhere] dark:text-neutral-400" data-testid="list-empty">
            {searching ? `No titles match “${search}”` : "No conversations yet"}
          </p>
        ) : null}
        {searching && searchScan !== null && !query.isPending && !query.isError && !hasNextPage ? (
          <p className="px-2 py-2 text-xs text-neutral-600 dark:text-neutral-400" data-testid="search-scope">
            Searched current titles only, of up to the {searchScan.toLocaleString("en-US")} most recently updated
            conversations: the LangGraph server this app runs on cannot search titles itself.
          </p>
        ) : null}
      </div>
      {/* Outside the menu, so it stays open after the menu closes. */}
      {history && !standardApi ? (
        <TitleHistoryPanel
          threadId={history.id}
          open={history.open}
          onOpenChange={(open) => setHistory({ id: history.id, open })}
          returnFocusTo={historyReturn}
        />
      ) : null}
    </nav>
  );
}
