import type { TitleFact, TitleSource } from "@/lib/title";
import type { ThreadRow } from "./types";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const SOURCE_KINDS = new Set(["fallback", "model", "user"]);
const STATUSES = new Set(["idle", "busy", "interrupted", "error"]);

/** Reads a `title_source` value defensively (object, or the JSON text of one). */
export function parseTitleSource(raw: unknown): TitleSource | null {
  let v = raw;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return null;
    }
  }
  if (!isObj(v) || typeof v.kind !== "string" || !SOURCE_KINDS.has(v.kind)) return null;
  const source: TitleSource = { kind: v.kind as TitleSource["kind"] };
  if (typeof v.model === "string" && v.model) source.model = v.model;
  return source;
}

/** A title fact from any object carrying `title` / `title_source` (state values, `extracted`, responses). */
export function titleFactOf(holder: unknown): TitleFact {
  if (!isObj(holder)) return { title: null, source: null };
  const title = typeof holder.title === "string" && holder.title.trim() !== "" ? holder.title : null;
  return { title, source: title ? parseTitleSource(holder.title_source) : null };
}

/** One lean-list thread (no `values`; title in `extracted`) → the row the UI keeps. */
export function toThreadRow(thread: unknown): ThreadRow | null {
  if (!isObj(thread) || typeof thread.thread_id !== "string") return null;
  const metadata = isObj(thread.metadata) ? thread.metadata : {};
  const created = typeof thread.created_at === "string" ? thread.created_at : new Date(0).toISOString();
  const updated = typeof thread.updated_at === "string" ? thread.updated_at : created;
  const status = typeof thread.status === "string" && STATUSES.has(thread.status) ? thread.status : "idle";
  // Lean mode puts the title in `extracted`; a standard thread carries it in `values`.
  const holder = isObj(thread.extracted) ? thread.extracted : thread.values;
  return {
    id: thread.thread_id,
    createdAt: created,
    updatedAt: updated,
    status: status as ThreadRow["status"],
    starred: metadata.starred === true,
    title: titleFactOf(holder),
  };
}
