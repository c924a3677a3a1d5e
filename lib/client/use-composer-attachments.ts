"use client";
import { useCallback, useMemo, useRef, useState } from "react";
import { admitFiles, limitsPassed, overLimit, readAttachment, refusalText, type ComposerAttachment, type Refusal } from "./attachments";
import type { TakenSend } from "./use-draft";
import { useKeptDraftFiles } from "./use-kept-draft-files";

export interface ComposerAttachments {
  attachments: ComposerAttachment[];
  /** Why the last files could not all be added or read (cleared by the next change). */
  refusal: string | null;
  /**
   * Why these files cannot go in one message (only after a put-back): Send waits until some are
   * removed. Shown beside a refusal, not joined to it, so a new refusal does not re-announce it.
   */
  overLimit: string | null;
  /** True while admitted files are still being read, or the kept ones loaded (sending waits for them). */
  reading: boolean;
  /** The kept files of this key are in the box (or took too long to come). */
  loaded: boolean;
  add: (files: readonly File[]) => void;
  remove: (id: string) => void;
  clear: () => void;
  /** Puts back files already read (a send that never started), after any in the composer now; never drops one. */
  restore: (attachments: readonly ComposerAttachment[]) => void;
}

/**
 * The files waiting in the composer. A refused file only adds an error line: whatever was typed
 * or attached before stays as it was. Kept per conversation `key` across switching and reloads,
 * like the text (use-kept-draft-files.ts).
 */
export function useComposerAttachments(key: string, restored = false, taken: TakenSend | null = null): ComposerAttachments {
  const [attachments, setAttachments] = useState<ComposerAttachment[]>([]);
  // What the last add refused, and the files since that could not be read (both cleared by the next change).
  const [refused, setRefused] = useState<readonly Refusal[]>([]);
  const [unread, setUnread] = useState<readonly string[]>([]);
  const [pending, setPending] = useState<{ size: number }[]>([]);
  // Limits count files still being read too, so two quick drops cannot overshoot together.
  const committed = useRef<{ size: number }[]>([]);

  const add = useCallback((files: readonly File[]) => {
    if (files.length === 0) return;
    const { admitted, refused: now } = admitFiles(committed.current, files);
    setRefused(now);
    setUnread([]);
    if (admitted.length === 0) return;
    const reserved = admitted.map((f) => ({ size: f.size }));
    committed.current = [...committed.current, ...reserved];
    setPending((p) => [...p, ...reserved]);
    void Promise.allSettled(admitted.map(readAttachment)).then((results) => {
      const read = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
      const failed = admitted.filter((_, i) => results[i].status === "rejected").map((f) => `"${f.name}"`);
      committed.current = committed.current.filter((c) => !reserved.includes(c)).concat(read);
      setPending((p) => p.filter((c) => !reserved.includes(c)));
      setAttachments((a) => [...a, ...read]);
      // Added to what shows rather than replacing it: a read can fail after a later change's own message.
      if (failed.length) setUnread((u) => [...u, ...failed]);
    });
  }, []);

  const remove = useCallback((id: string) => {
    committed.current = committed.current.filter((c) => (c as Partial<ComposerAttachment>).id !== id);
    setAttachments((a) => a.filter((x) => x.id !== id));
    setRefused([]);
    setUnread([]);
  }, []);

  const clear = useCallback(() => {
    committed.current = committed.current.filter((c) => !("id" in c));
    setAttachments([]);
    setRefused([]);
    setUnread([]);
  }, []);

  const restore = useCallback((back: readonly ComposerAttachment[]) => {
    const held = new Set(committed.current.flatMap((c) => ("id" in c ? [(c as ComposerAttachment).id] : [])));
    const missing = back.filter((a) => !held.has(a.id));
    if (missing.length === 0) return;
    committed.current = [...committed.current, ...missing];
    setAttachments((a) => [...a, ...missing]);
  }, []);
  const loaded = useKeptDraftFiles(key, restored, taken, { attachments, restore });

  const tooMuch = useMemo(() => overLimit(attachments), [attachments]);
  // Phrased against the files held now: a put-back that passes a limit leaves that limit to tooMuch.
  const refusal = useMemo(() => {
    const text = [refusalText(refused, limitsPassed(attachments)), unread.length ? `Could not read ${unread.join(", ")}.` : null].filter(Boolean).join(" ");
    return text || null;
  }, [refused, unread, attachments]);
  return { attachments, refusal, overLimit: tooMuch, reading: pending.length > 0 || !loaded, loaded, add, remove, clear, restore };
}
