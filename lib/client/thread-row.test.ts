import { describe, expect, it } from "vitest";
import { parseTitleSource, titleFactOf } from "@/lib/title";
import { toThreadRow } from "./thread-row";

describe("toThreadRow", () => {
  it("reads a lean list thread with extracted title", () => {
    const r = toThreadRow({
      thread_id: "t1",
      created_at: "2024-01-01T00:00:00Z",
      updated_at: "2024-01-03T00:00:00Z",
      activity_at: "2024-01-02T00:00:00Z",
      status: "busy",
      metadata: { starred: true },
      extracted: { title: "Hello", title_source: { kind: "model", model: "m" } },
    });
    expect(r).toEqual({
      id: "t1",
      createdAt: "2024-01-01T00:00:00Z",
      activityAt: "2024-01-02T00:00:00Z",
      status: "busy",
      starred: true,
      title: { title: "Hello", source: { kind: "model", model: "m" } },
    });
  });

  it("orders by updated_at when the server has no activity_at (a LangGraph server)", () => {
    expect(toThreadRow({ thread_id: "t", created_at: "2024-01-01T00:00:00Z", updated_at: "2024-01-05T00:00:00Z" })?.activityAt).toBe(
      "2024-01-05T00:00:00Z",
    );
  });

  it("falls back to values and tolerates junk", () => {
    expect(toThreadRow({ thread_id: "t", values: { title: "V", title_source: '{"kind":"user"}' } })?.title).toEqual({
      title: "V",
      source: { kind: "user" },
    });
    expect(toThreadRow({ thread_id: "t", status: "weird", metadata: { starred: "yes" } })).toMatchObject({
      status: "idle",
      starred: false,
      title: { title: null, source: null },
    });
    expect(toThreadRow(null)).toBeNull();
    expect(toThreadRow({})).toBeNull();
  });

  it("parses sources defensively", () => {
    expect(parseTitleSource({ kind: "nope" })).toBeNull();
    expect(parseTitleSource("{bad")).toBeNull();
    expect(titleFactOf({ title: "   ", title_source: { kind: "user" } })).toEqual({ title: null, source: null });
  });
});

import { noteServerTime, serverNowIso } from "./thread-pages";

describe("server clock for $as_of", () => {
  it("ignores small offsets and applies real skew", () => {
    noteServerTime(Date.now() + 1_000);
    expect(Math.abs(Date.parse(serverNowIso()) - Date.now())).toBeLessThan(200);
    noteServerTime(Date.now() + 60_000);
    expect(Date.parse(serverNowIso()) - Date.now()).toBeGreaterThan(59_000);
    noteServerTime(Date.now());
  });
});
