"use client";
import { useEffect, useRef, useState } from "react";
import type { ComposerAttachment } from "./attachments";
import { readDraftFiles, readSentFiles, releaseSentFiles, writeDraftFiles } from "./draft-files";
import type { TakenSend } from "./use-draft";

/** How long Send waits for the kept files before a message may go without them (IndexedDB stuck). */
const LOAD_PATIENCE_MS = 1500;

const idsOf = (files: readonly ComposerAttachment[]) => files.map((f) => f.id).join(" ");
const unique = (files: readonly ComposerAttachment[]) => files.filter((f, i) => files.findIndex((g) => g.id === f.id) === i);

interface Box {
  attachments: readonly ComposerAttachment[];
  /** Adds files after those the box holds (each load: a composer's first, and the one after its key moved). */
  restore: (files: readonly ComposerAttachment[]) => void;
}

/**
 * Keeps the composer's files for conversation `key` in IndexedDB (draft-files.ts), as useDraft
 * keeps its text. Once the text is restored (`restored`), the files of the unsent send taken back
 * then (`taken`) are moved into the draft's first, so leaving at once loses nothing; then the
 * draft's files come into the box. A composer whose key changes (the new-conversation page's
 * thread is made by its own send) keeps the files it holds, as the text does, now under the
 * thread's key. From then on every change is saved. True once the files are in, or patience ran out.
 */
export function useKeptDraftFiles(key: string, restored: boolean, taken: TakenSend | null, box: Box): boolean {
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [gaveUpFor, setGaveUpFor] = useState<string | null>(null);
  const saved = useRef<{ key: string; ids: string } | null>(null);
  const { restore, attachments } = box;
  const sentId = taken?.files ? taken.messageId : null;
  const sentBack = sentId !== null && !taken?.delivered;
  useEffect(() => {
    if (!restored) return;
    let live = true;
    const before = saved.current;
    const patience = setTimeout(() => setGaveUpFor(key), LOAD_PATIENCE_MS);
    void (async () => {
      const sent = sentBack && sentId !== null ? await readSentFiles(sentId) : [];
      const draft = await readDraftFiles(key);
      const kept = unique([...sent, ...draft]);
      if (sent.length) await writeDraftFiles(key, kept);
      if (sentId !== null) await releaseSentFiles(sentId);
      if (!live) return;
      clearTimeout(patience);
      saved.current = { key, ids: idsOf(kept) };
      restore(kept);
      setLoadedFor(key);
      // Carried over from the new-conversation page: its draft lets go of these files, unless
      // another tab has saved others there since.
      if (before && before.key !== key && before.ids !== "" && idsOf(await readDraftFiles(before.key)) === before.ids) await writeDraftFiles(before.key, []);
    })();
    return () => {
      live = false;
      clearTimeout(patience);
    };
  }, [key, restored, sentId, sentBack, restore]);
  useEffect(() => {
    if (loadedFor !== key) return;
    const ids = idsOf(attachments);
    if (saved.current?.key === key && saved.current.ids === ids) return;
    saved.current = { key, ids };
    void writeDraftFiles(key, attachments);
  }, [key, loadedFor, attachments]);
  return loadedFor === key || gaveUpFor === key;
}
