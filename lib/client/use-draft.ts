"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { joinUnsentAndDraft, takeUnsent } from "./unsent";

/** Drafts live in localStorage under one key, per conversation ("new" for the new-chat page). */
const STORE_KEY = "threadline:drafts";
export const NEW_CONVERSATION_DRAFT = "new";
/** Bounds, so a forgotten pile of drafts never fills the origin's storage. */
export const MAX_DRAFTS = 50;
export const MAX_DRAFT_CHARS = 20_000;

type Drafts = Record<string, { text: string; at: number }>;
type DraftStorage = Pick<Storage, "getItem" | "setItem">;

function load(storage: DraftStorage): Drafts {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(STORE_KEY) ?? "{}");
    if (!parsed || typeof parsed !== "object") return {};
    const out: Drafts = {};
    for (const [k, v] of Object.entries(parsed)) {
      const d = v as { text?: unknown; at?: unknown };
      if (typeof d?.text === "string" && typeof d.at === "number") out[k] = { text: d.text, at: d.at };
    }
    return out;
  } catch {
    return {};
  }
}

export function readDraft(storage: DraftStorage, key: string): string {
  return load(storage)[key]?.text ?? "";
}

/** Saves (or, for blank text, removes) one draft; keeps only the MAX_DRAFTS most recent. */
export function writeDraft(storage: DraftStorage, key: string, text: string, now = Date.now()): void {
  const drafts = load(storage);
  if (text.trim()) drafts[key] = { text: text.slice(0, MAX_DRAFT_CHARS), at: now };
  else delete drafts[key];
  const kept = Object.entries(drafts)
    .sort((a, b) => b[1].at - a[1].at)
    .slice(0, MAX_DRAFTS);
  try {
    storage.setItem(STORE_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // quota or private mode: the draft still lives in the box for this page
  }
}

/** Ids of the messages this page has sent whose run the server has not confirmed, nor failed. */
export const sendsUnderWay = new Set<string>();
const NONE: ReadonlySet<string> = new Set();

export function browserStorage(): DraftStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The composer's text, kept per conversation across switching and reloads until it is sent.
 * Starts empty on the server and first client render (no hydration mismatch), then restores,
 * with a send that never reached the server put back in front of it (lib/client/unsent.ts);
 * `delivered` are the ids of the messages the conversation already holds.
 */
export function useDraft(key: string, delivered: ReadonlySet<string> = NONE): [string, (text: string) => void] {
  const [text, setText] = useState("");
  const deliveredRef = useRef(delivered);
  useEffect(() => {
    const storage = browserStorage();
    if (!storage) return;
    const unsent = takeUnsent(storage, key, sendsUnderWay, deliveredRef.current);
    const restored = joinUnsentAndDraft(unsent, readDraft(storage, key));
    if (unsent) writeDraft(storage, key, restored);
    // Restoring from storage after hydration is the point of this effect.
    setText(restored);
  }, [key]);
  const update = useCallback(
    (next: string) => {
      setText(next);
      const storage = browserStorage();
      if (storage) writeDraft(storage, key, next);
    },
    [key],
  );
  return [text, update];
}
