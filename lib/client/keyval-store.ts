import { createStore, type UseStore } from "idb-keyval";

/**
 * An IndexedDB key-value store, made on first use and kept: null where the page has no IndexedDB
 * (server render) or reading it throws (storage blocked), so callers go on without it. The
 * database itself opens at the first read or write, whose failure each caller catches.
 */
export function lazyKeyvalStore(database: string, storeName: string): () => UseStore | null {
  let opened: UseStore | null | undefined;
  return () => {
    if (opened === undefined) {
      try {
        opened = typeof indexedDB === "undefined" ? null : createStore(database, storeName);
      } catch {
        opened = null;
      }
    }
    return opened;
  };
}
