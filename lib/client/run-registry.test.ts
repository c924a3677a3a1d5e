import { describe, expect, it, vi } from "vitest";
import { runRegistry, watchPageLeaving } from "./run-registry";

describe("runRegistry", () => {
  it("records runs through the SDK storage interface and notifies", () => {
    const listener = vi.fn();
    const off = runRegistry.subscribe(listener);
    const storage = runRegistry.storage();
    storage.setItem("lg:stream:t1", "r1");
    expect(storage.getItem("lg:stream:t1")).toBe("r1");
    expect(runRegistry.list()).toEqual([{ threadId: "t1", runId: "r1" }]);
    expect(runRegistry.has("t1")).toBe(true);
    runRegistry.forget("t1", "other-run");
    expect(runRegistry.has("t1")).toBe(true);
    storage.removeItem("lg:stream:t1");
    expect(runRegistry.has("t1")).toBe(false);
    expect(listener).toHaveBeenCalledTimes(2);
    runRegistry.setOpenThread("t2");
    expect(runRegistry.openThread).toBe("t2");
    expect(listener).toHaveBeenCalledTimes(3);
    off();
  });

  it("while the page is being left, a forget leaves the stored copy for the next page; if the page stays, the copy catches up", () => {
    vi.useFakeTimers();
    const stored = new Map<string, string>();
    vi.stubGlobal("sessionStorage", { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => stored.set(k, v), removeItem: (k: string) => stored.delete(k) });
    const storedRuns = () => JSON.parse(stored.get("threadline:runs") ?? "{}") as Record<string, string>;
    try {
      const page = new EventTarget();
      watchPageLeaving(page);
      const storage = runRegistry.storage();
      storage.setItem("lg:stream:t9", "r9");
      page.dispatchEvent(new Event("beforeunload"));
      storage.removeItem("lg:stream:t9");
      // This page goes on without it (Stop, new runs), the next one would still find it.
      expect(runRegistry.has("t9")).toBe(false);
      expect(storedRuns()).toMatchObject({ t9: "r9" });
      vi.advanceTimersByTime(9_000);
      expect(storedRuns()).toMatchObject({ t9: "r9" });
      // Still here 10 s on (the navigation was called off): the stored copy catches up.
      vi.advanceTimersByTime(1_000);
      expect(storedRuns()).not.toHaveProperty("t9");

      // A run started meanwhile is stored at once; back from the back/forward cache, the copy catches up.
      storage.setItem("lg:stream:t8", "r8");
      page.dispatchEvent(new Event("beforeunload"));
      runRegistry.forget("t8", "r8");
      storage.setItem("lg:stream:t7", "r7");
      expect(storedRuns()).toEqual({ t7: "r7" });
      runRegistry.forget("t7");
      expect(storedRuns()).toEqual({ t7: "r7" });
      page.dispatchEvent(Object.assign(new Event("pageshow"), { persisted: true }));
      expect(storedRuns()).toEqual({});
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });
});
