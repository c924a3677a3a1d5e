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

  it("holds forgetting while the page is being left (its streams are cut, not ended), and forgets if the page stays", () => {
    vi.useFakeTimers();
    try {
      const page = new EventTarget();
      watchPageLeaving(page);
      const storage = runRegistry.storage();
      storage.setItem("lg:stream:t9", "r9");
      page.dispatchEvent(new Event("beforeunload"));
      storage.removeItem("lg:stream:t9");
      runRegistry.forget("t9");
      expect(runRegistry.has("t9")).toBe(true);
      vi.advanceTimersByTime(9_000);
      expect(runRegistry.has("t9")).toBe(true);
      // Still here 10 s on (the navigation was called off): forgotten after all.
      vi.advanceTimersByTime(1_000);
      expect(runRegistry.has("t9")).toBe(false);

      // Back from the back/forward cache: the same, at once.
      storage.setItem("lg:stream:t8", "r8");
      page.dispatchEvent(new Event("beforeunload"));
      runRegistry.forget("t8", "r8");
      expect(runRegistry.has("t8")).toBe(true);
      page.dispatchEvent(Object.assign(new Event("pageshow"), { persisted: true }));
      expect(runRegistry.has("t8")).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
