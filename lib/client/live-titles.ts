import type { QueryClient } from "@tanstack/react-query";
import { sameTitleFact, titleFactOf, type TitleFact } from "@/lib/title";
import { broadcast, type TabMessage } from "./cross-tab";
import { loadBrowserClient } from "./api-client";
import { getPatches, patchRow } from "./row-patches";
import { fetchThreadRowPage } from "./thread-pages";
import { computeThreadTitle } from "./use-thread-title";

/**
 * A run's `values` event (or state) carried a title: remember it as this row's latest stream fact.
 * Empty titles are not facts (the first values event of a run has none yet) and a repeat of the
 * same fact keeps its original time. The display rule lives in resolveRowTitle, not here.
 * `reread` says whether it started a re-read of the thread's row (see below).
 */
export function recordStreamTitle(qc: QueryClient, threadId: string, values: unknown, opts: { at?: number; share?: boolean } = {}): { reread: boolean } {
  const fact = titleFactOf(values);
  if (!fact.title) return { reread: false };
  const prev = getPatches(qc)[threadId]?.stream;
  if (prev && !prev.local && sameTitleFact(prev.fact, fact)) return { reread: false };
  // A user title other than the one shown (which resolveRowTitle keeps): only the server knows
  // whether it is the thread's (a rename from elsewhere) or one it has left (a branch), so the
  // thread is read again.
  const shown = computeThreadTitle(qc, threadId);
  const reread = fact.source?.kind === "user" && shown.title !== fact.title;
  const at = opts.at ?? Date.now();
  patchRow(qc, threadId, (p) => ({ ...p, stream: { fact, at } }));
  if (opts.share !== false) broadcast({ type: "stream-title", threadId, fact, at });
  if (reread) void rereadThreadTitle(qc, threadId).catch(() => undefined);
  return { reread };
}

/**
 * The thread's title as the registry holds it now (a pin still waiting to be written included),
 * recorded as a server fact dated when the read began: a rename answered meanwhile stays newer.
 */
export async function rereadThreadTitle(qc: QueryClient, threadId: string): Promise<void> {
  const page = await fetchThreadRowPage(await loadBrowserClient(), threadId);
  const row = page.rows[0];
  if (row) recordServerTitle(qc, threadId, row.title, { at: page.fetchedAt });
}

/** The server answered with the thread's current title (rename, regenerate, another tab). */
export function recordServerTitle(qc: QueryClient, threadId: string, fact: TitleFact, opts: { at?: number; share?: boolean } = {}) {
  const at = opts.at ?? Date.now();
  // A fact read before the one held (a re-read answered after a rename's answer) is older: kept out.
  patchRow(qc, threadId, (p) => (p.server && p.server.at > at ? p : { ...p, server: { fact, at } }));
  if (opts.share !== false) broadcast({ type: "server-title", threadId, fact, at });
}

/** A new thread exists: show its row at once, with the instant title when there is one. */
export function recordNewThread(
  qc: QueryClient,
  threadId: string,
  opts: { instantTitle?: string | null; share?: boolean; busy?: boolean } = {},
) {
  const createdAt = new Date().toISOString();
  const at = Date.now();
  patchRow(qc, threadId, (p) => ({
    ...p,
    draft: { createdAt },
    activityAt: createdAt,
    busy: opts.busy ?? p.busy,
    busyAt: opts.busy === undefined ? p.busyAt : at,
    stream: opts.instantTitle
      ? { fact: { title: opts.instantTitle, source: { kind: "fallback" } }, at, local: true }
      : p.stream,
  }));
  if (opts.share !== false) broadcast({ type: "created", threadId, createdAt });
}

/** A run of this tab started (busy) or ended on a thread; `runId` lets a tab showing it join. */
export function recordRunActivity(qc: QueryClient, threadId: string, busy: boolean, opts: { share?: boolean; runId?: string } = {}) {
  const at = new Date().toISOString();
  patchRow(qc, threadId, (p) => ({ ...p, busy, busyAt: Date.now(), activityAt: busy ? at : (p.activityAt ?? at) }));
  if (opts.share !== false) broadcast({ type: "activity", threadId, at, busy, ...(opts.runId ? { runId: opts.runId } : {}) });
}

/** Applies what another tab told us; never re-broadcasts. */
export function applyTabMessage(qc: QueryClient, m: TabMessage): void {
  switch (m.type) {
    case "server-title":
      recordServerTitle(qc, m.threadId, m.fact, { at: m.at, share: false });
      return;
    case "stream-title":
      // A user title other than the one this tab shows makes this tab read the thread too (the tab
      // that sent it may not have needed to).
      recordStreamTitle(qc, m.threadId, { title: m.fact.title, title_source: m.fact.source }, { at: m.at, share: false });
      return;
    case "created":
      patchRow(qc, m.threadId, (p) => ({ ...p, draft: p.draft ?? { createdAt: m.createdAt }, activityAt: m.createdAt }));
      return;
    case "activity":
      // Another tab's run: show it as active here too (shimmer while untitled), not "ours".
      patchRow(qc, m.threadId, (p) => ({ ...p, activityAt: m.at, busy: m.busy, busyAt: Date.now() }));
      return;
    case "starred":
      patchRow(qc, m.threadId, (p) => ({ ...p, starred: m.starred }));
      return;
    case "deleted":
      patchRow(qc, m.threadId, (p) => ({ ...p, deleted: true }));
      return;
  }
}
