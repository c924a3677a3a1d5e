"use client";
import { useCallback, useEffect, useState } from "react";

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

function browserStorage(): DraftStorage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The composer's text, kept per conversation across switching and reloads until it is sent.
 * Starts empty on the server and first client render (no hydration mismatch), then restores.
 */
export function useDraft(key: string): [string, (text: string) => void] {
  const [text, setText] = useState("");
  useEffect(() => {
    const storage = browserStorage();
    // Restoring from storage after hydration is the point of this effect.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (storage) setText(readDraft(storage, key));
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
