import { decideTitle, type TitleFact, type TitleSource } from "@/lib/title";
import type { OptimisticEdit, RowPatch, ThreadRow, TimedFact } from "./types";

export type TitleOrigin = "none" | "server" | "stream" | "edit";

export interface ResolvedTitle {
  title: string | null;
  source: TitleSource | null;
  origin: TitleOrigin;
  /** The shown title is the browser's own instant title, not confirmed by the server yet. */
  local: boolean;
}

const NO_FACT: TitleFact = { title: null, source: null };

/**
 * Which title a row shows. The server's fact is the base; a stream event that arrived AFTER that
 * fact is a proposal, and an optimistic rename is a "user" proposal. Both go through lib/title's
 * `decideTitle`, the same rule every server-side writer uses, so the browser never invents a
 * second precedence rule. Used by the list rows, the chat header and `document.title` alike.
 */
export function resolveRowTitle(
  server: TimedFact | null | undefined,
  edit: OptimisticEdit | null | undefined,
  stream: TimedFact | null | undefined,
): ResolvedTitle {
  let fact: TitleFact = server?.fact ?? NO_FACT;
  let origin: TitleOrigin = fact.title ? "server" : "none";
  let local = false;

  const streamTitle = stream?.fact.title;
  if (stream && streamTitle && (!server || stream.at > server.at)) {
    const source: TitleSource = stream.fact.source ?? { kind: "fallback" };
    // A run's values hold the title its run started from (a rename made during the run is written
    // after it; a branch's may be an older rename the thread has left), so a user title there
    // replaces nothing the page shows (`fromRun`, as on the server). The page reads the thread again instead.
    if (decideTitle(fact, { title: streamTitle, source }, { fromRun: true }).accept) {
      fact = { title: streamTitle, source };
      origin = "stream";
      local = stream.local === true;
    }
  }

  if (edit) {
    const source: TitleSource = { kind: "user" };
    if (decideTitle(fact, { title: edit.title, source }).accept) {
      fact = { title: edit.title, source };
      origin = "edit";
      local = false;
    }
  }

  return { title: fact.title || null, source: fact.title ? fact.source : null, origin, local };
}

/** The freshest server fact for a thread: the fetched row's, or a newer one a response brought. */
export function latestServerFact(
  row: ThreadRow | undefined,
  fetchedAt: number,
  patch: RowPatch | undefined,
): TimedFact | null {
  const fromPage = row ? { fact: row.title, at: fetchedAt } : null;
  const fromPatch = patch?.server ?? null;
  if (fromPage && fromPatch) return fromPatch.at >= fromPage.at ? fromPatch : fromPage;
  return fromPatch ?? fromPage;
}

/** The one resolution path for a thread id: page row (if any) + this tab's patch. */
export function resolveThreadTitle(
  row: ThreadRow | undefined,
  fetchedAt: number,
  patch: RowPatch | undefined,
): ResolvedTitle {
  return resolveRowTitle(latestServerFact(row, fetchedAt, patch), patch?.edit, patch?.stream);
}

/**
 * Whether a run is going on a thread: the later of what a fetched row said (its status, as of
 * `fetchedAt`) and what this tab learnt since (a run it started, joined or saw end). A run the page
 * loaded as busy and this tab then saw end is over, though no page was fetched again.
 */
export function isBusy(rowStatus: string | undefined, fetchedAt: number, patch: RowPatch | undefined): boolean {
  if (patch?.busy !== undefined && (patch.busyAt ?? Number.POSITIVE_INFINITY) > fetchedAt) return patch.busy;
  return rowStatus === "busy" || patch?.busy === true;
}
