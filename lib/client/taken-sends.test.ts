import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { markTaken, wasTaken } from "./taken-sends";
import { withUnsentLock } from "./unsent";

describe("taken sends", () => {
  it("a send marked taken reads as taken, another does not; marks past a day go at the next mark", async () => {
    const day = 24 * 60 * 60 * 1000;
    await markTaken("m-old", 1_000);
    expect(await wasTaken("m-old")).toBe(true);
    await markTaken("m-new", 1_000 + day);
    expect(await wasTaken("m-new")).toBe(true);
    expect(await wasTaken("m-old")).toBe(false);
    expect(await wasTaken("m-never")).toBe(false);
  });
});

describe("withUnsentLock", () => {
  it("runs the work and gives its result, with no Web Locks (Node) as with them", async () => {
    expect(await withUnsentLock("k", () => 7)).toBe(7);
    expect(await withUnsentLock("k", async () => "async")).toBe("async");
  });

  it("runs one key's work one at a time where Web Locks exist, and unguarded if the lock is refused", async () => {
    const order: string[] = [];
    let queue = Promise.resolve();
    const locks = {
      request: (_name: string, f: () => unknown) => {
        const run = queue.then(() => f());
        queue = run.then(() => undefined);
        return run;
      },
    };
    const nav = globalThis as { navigator?: unknown };
    const before = Object.getOwnPropertyDescriptor(globalThis, "navigator");
    Object.defineProperty(globalThis, "navigator", { value: { locks }, configurable: true });
    try {
      const slow = withUnsentLock("k", async () => {
        order.push("a starts");
        await new Promise((r) => setTimeout(r, 20));
        order.push("a ends");
      });
      const next = withUnsentLock("k", () => void order.push("b"));
      await Promise.all([slow, next]);
      expect(order).toEqual(["a starts", "a ends", "b"]);
      Object.defineProperty(globalThis, "navigator", { value: { locks: { request: () => Promise.reject(new Error("SecurityError")) } }, configurable: true });
      expect(await withUnsentLock("k", () => "ran")).toBe("ran");
    } finally {
      if (before) Object.defineProperty(globalThis, "navigator", before);
      else delete nav.navigator;
    }
  });
});
