import { titleFactOf } from "@/lib/title";
import type { ThreadRow } from "./types";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const STATUSES = new Set(["idle", "busy", "interrupted", "error"]);

/** One lean-list thread (no `values`; title in `extracted`) → the row the UI keeps. */
export function toThreadRow(thread: unknown): ThreadRow | null {
  if (!isObj(thread) || typeof thread.thread_id !== "string") return null;
  const metadata = isObj(thread.metadata) ? thread.metadata : {};
  const created = typeof thread.created_at === "string" ? thread.created_at : new Date(0).toISOString();
  // A server without `activity_at` (a LangGraph server) orders by `updated_at`.
  const activity = typeof thread.activity_at === "string" ? thread.activity_at : typeof thread.updated_at === "string" ? thread.updated_at : created;
  const status = typeof thread.status === "string" && STATUSES.has(thread.status) ? thread.status : "idle";
  // Lean mode puts the title in `extracted`; a standard thread carries it in `values`.
  const holder = isObj(thread.extracted) ? thread.extracted : thread.values;
  return {
    id: thread.thread_id,
    createdAt: created,
    activityAt: activity,
    status: status as ThreadRow["status"],
    starred: metadata.starred === true,
    title: titleFactOf(holder),
  };
}
