import { describe, expect, it } from "vitest";
import { latestServerFact, resolveRowTitle, resolveThreadTitle } from "./resolve-row-title";
import type { ThreadRow, TimedFact } from "./types";

const fb = (title: string, at: number, local = false): TimedFact => ({ fact: { title, source: { kind: "fallback" } }, at, local });
const model = (title: string, at: number): TimedFact => ({ fact: { title, source: { kind: "model", model: "m1" } }, at });
const user = (title: string, at: number): TimedFact => ({ fact: { title, source: { kind: "user" } }, at });

describe("resolveRowTitle", () => {
  it("shows nothing when nobody has a title", () => {
    expect(resolveRowTitle(null, null, null)).toEqual({ title: null, source: null, origin: "none", local: false });
  });

  it("shows the server title when there is nothing newer", () => {
    const r = resolveRowTitle(model("Paris trip", 10), null, null);
    expect(r).toMatchObject({ title: "Paris trip", origin: "server", source: { kind: "model", model: "m1" } });
  });

  it("a newer stream event upgrades a fallback server title to the model's", () => {
    const r = resolveRowTitle(fb("plan a trip to...", 10), null, model("Paris trip", 20));
    expect(r).toMatchObject({ title: "Paris trip", origin: "stream" });
  });

  it("ignores a stream event older than the server fact (e.g. after a regenerate)", () => {
    const r = resolveRowTitle(model("Fresh name", 30), null, model("Old name", 20));
    expect(r.title).toBe("Fresh name");
  });

  it("never lets an automatic stream title replace a pinned user title", () => {
    expect(resolveRowTitle(user("Mine", 10), null, model("Model's", 20)).title).toBe("Mine");
    expect(resolveRowTitle(user("Mine", 10), null, fb("hello", 20)).title).toBe("Mine");
  });

  it("never downgrades a model title to a later fallback event (replays)", () => {
    expect(resolveRowTitle(model("Good", 10), null, fb("hello wor...", 20)).title).toBe("Good");
  });

  it("never takes a user title from the stream over an automatic one (a branch may carry a rename the thread has left; live-titles re-reads the thread)", () => {
    expect(resolveRowTitle(fb("hi", 10), null, user("Mine", 20))).toMatchObject({ title: "hi", origin: "server" });
    expect(resolveRowTitle(null, null, user("Mine", 20))).toMatchObject({ title: null, origin: "none" });
  });

  it("never lets a stream's user title replace the server's user title, however late it came (its run started before)", () => {
    expect(resolveRowTitle(user("Renamed during the run", 10), null, user("Pin the run started with", 20))).toMatchObject({ title: "Renamed during the run", origin: "server" });
    expect(resolveRowTitle(user("Same", 10), null, user("Same", 20)).title).toBe("Same");
  });

  it("an optimistic edit wins over server and stream", () => {
    const r = resolveRowTitle(model("Server", 10), { title: "Typed", at: 5 }, model("Stream", 20));
    expect(r).toMatchObject({ title: "Typed", origin: "edit", source: { kind: "user" } });
  });

  it("marks the browser's instant title as local until the server confirms one", () => {
    expect(resolveRowTitle(null, null, fb("hello there", 5, true))).toMatchObject({ title: "hello there", local: true });
    const confirmed = resolveRowTitle(fb("hello there", 9), null, fb("hello there", 5, true));
    expect(confirmed).toMatchObject({ title: "hello there", local: false, origin: "server" });
  });

  it("treats an empty stream title as no event", () => {
    expect(resolveRowTitle(fb("a", 1), null, { fact: { title: "", source: null }, at: 5 }).title).toBe("a");
  });

  it("treats a stream title without a source as a fallback", () => {
    const r = resolveRowTitle(null, null, { fact: { title: "x", source: null }, at: 1 });
    expect(r.source).toEqual({ kind: "fallback" });
  });
});

describe("latestServerFact / resolveThreadTitle", () => {
  const row: ThreadRow = {
    id: "t1",
    createdAt: "2024-01-01T00:00:00Z",
    activityAt: "2024-01-01T00:00:00Z",
    status: "idle",
    starred: false,
    title: { title: "From page", source: { kind: "model" } },
  };

  it("prefers a response fact newer than the page", () => {
    expect(latestServerFact(row, 10, { server: user("Renamed", 20) })?.fact.title).toBe("Renamed");
    expect(latestServerFact(row, 30, { server: user("Renamed", 20) })?.fact.title).toBe("From page");
    expect(latestServerFact(undefined, 0, undefined)).toBeNull();
  });

  it("resolves page row + patch in one call", () => {
    expect(resolveThreadTitle(row, 10, { stream: model("Streamed", 20) }).title).toBe("Streamed");
    expect(resolveThreadTitle(row, 10, { edit: { title: "Mine", at: 11 } }).title).toBe("Mine");
  });
});
