import { describe, expect, it, vi } from "vitest";
import { runRegistry } from "./run-registry";

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
});
