import { IDBFactory } from "fake-indexeddb";
import { get, set } from "idb-keyval";
import { afterEach, describe, expect, it, vi } from "vitest";
import { lazyKeyvalStore } from "./keyval-store";

describe("lazyKeyvalStore", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is null where the page has no IndexedDB, and stays so", () => {
    vi.stubGlobal("indexedDB", undefined);
    const store = lazyKeyvalStore("kv-test", "none");
    expect(store()).toBeNull();
    vi.stubGlobal("indexedDB", new IDBFactory());
    expect(store()).toBeNull();
  });

  it("is null where reading IndexedDB itself throws (storage blocked)", () => {
    const before = Object.getOwnPropertyDescriptor(globalThis, "indexedDB");
    Object.defineProperty(globalThis, "indexedDB", {
      configurable: true,
      get() {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    });
    try {
      expect(lazyKeyvalStore("kv-test", "blocked")()).toBeNull();
    } finally {
      if (before) Object.defineProperty(globalThis, "indexedDB", before);
      else delete (globalThis as { indexedDB?: unknown }).indexedDB;
    }
  });

  it("opens once and keeps what is written", async () => {
    vi.stubGlobal("indexedDB", new IDBFactory());
    const store = lazyKeyvalStore("kv-test", "kept");
    const first = store();
    expect(first).not.toBeNull();
    expect(store()).toBe(first);
    await set("k", 1, first!);
    expect(await get("k", lazyKeyvalStore("kv-test", "kept")()!)).toBe(1);
  });
});
