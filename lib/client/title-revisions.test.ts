import { describe, expect, it } from "vitest";
import { titleRevisions, withShownTitle, type HistoryEntry } from "./title-revisions";

const MODEL = { kind: "model", model: "openai:gpt-4o-mini" } as const;

let n = 0;
/** One checkpoint; `minute` orders them (history arrives newest first). */
function cp(minute: number, title: string | null, title_source: unknown = null, extra: Record<string, unknown> = {}): HistoryEntry {
  n++;
  return {
    values: { title, title_source, messages: [], ...extra },
    created_at: `2026-12-01T10:${String(minute).padStart(2, "0")}:00.000Z`,
    checkpoint: { checkpoint_id: `cp-${minute}-${n}` },
  };
}

describe("titleRevisions", () => {
  it("collapses consecutive checkpoints with the same title fact, newest first, each dated when it was set", () => {
    const history = [
      cp(9, "Ocean tides", { kind: "user" }),
      cp(8, "Ocean tides", { kind: "user" }, { messages: ["a later run"] }),
      cp(7, "Ocean tides", { kind: "user" }),
      cp(6, "Tides", { kind: "user" }),
      cp(5, "Tidal physics", MODEL),
      cp(4, "How do tides work", { kind: "fallback" }),
      cp(3, "How do tides work", { kind: "fallback" }),
      cp(2, null),
      cp(1, null),
    ];
    expect(titleRevisions(history).map((r) => [r.title, r.source, r.at?.slice(11, 16)])).toEqual([
      ["Ocean tides", { kind: "user" }, "10:07"],
      ["Tides", { kind: "user" }, "10:06"],
      ["Tidal physics", MODEL, "10:05"],
      ["How do tides work", { kind: "fallback" }, "10:03"],
    ]);
    expect(titleRevisions(history)[0].checkpointId).toMatch(/^cp-7-/);
  });

  it("the same title with another source, or coming back later, is a separate revision", () => {
    const history = [
      cp(5, "Tides", { kind: "user" }),
      cp(4, "Tides", MODEL),
      cp(3, "Tides", { kind: "model", model: "other" }),
      cp(2, "Waves", { kind: "user" }),
      cp(1, "Tides", { kind: "model", model: "other" }),
    ];
    expect(titleRevisions(history).map((r) => `${r.title}|${r.source?.kind}|${r.source?.model ?? ""}`)).toEqual([
      "Tides|user|",
      "Tides|model|openai:gpt-4o-mini",
      "Tides|model|other",
      "Waves|user|",
      "Tides|model|other",
    ]);
  });

  it("reads the source from its JSON text and keeps a legacy title without source", () => {
    const revisions = titleRevisions([cp(2, "New", JSON.stringify(MODEL)), cp(1, "Old", null)]);
    expect(revisions.map((r) => [r.title, r.source])).toEqual([
      ["New", MODEL],
      ["Old", null],
    ]);
  });

  it("a blank or missing title is not a revision and does not split a run", () => {
    const history = [cp(4, "Tides", { kind: "user" }), cp(3, "  ", { kind: "user" }), { values: undefined }, cp(1, "Tides", { kind: "user" })];
    expect(titleRevisions(history)).toEqual([{ title: "Tides", source: { kind: "user" }, at: "2026-12-01T10:01:00.000Z", checkpointId: expect.stringMatching(/^cp-1-/) }]);
  });

  it("stops at max revisions, each still collapsed over all of its checkpoints", () => {
    const history = [cp(5, "C", { kind: "user" }), cp(4, "B", { kind: "user" }), cp(3, "B", { kind: "user" }), cp(2, "A", { kind: "user" })];
    const two = titleRevisions(history, 2);
    expect(two.map((r) => [r.title, r.at?.slice(11, 16)])).toEqual([
      ["C", "10:05"],
      ["B", "10:03"],
    ]);
    expect(titleRevisions(history, 0)).toEqual([]);
    expect(titleRevisions([])).toEqual([]);
  });
});

describe("withShownTitle", () => {
  const revisions = titleRevisions([cp(5, "Tidal physics", MODEL), cp(4, "How do tides work", { kind: "fallback" })]);
  it("puts a shown title the checkpoints do not hold yet (a rename waiting for the run's end) on top, undated", () => {
    expect(withShownTitle(revisions, { title: "Tides", source: { kind: "user" } }).map((r) => [r.title, r.source?.kind, r.at, r.checkpointId])).toEqual([
      ["Tides", "user", null, null],
      ["Tidal physics", "model", revisions[0].at, revisions[0].checkpointId],
      ["How do tides work", "fallback", revisions[1].at, revisions[1].checkpointId],
    ]);
  });
  it("adds nothing when the newest revision is the shown title, or nothing is shown yet", () => {
    expect(withShownTitle(revisions, { title: "Tidal physics", source: MODEL })).toEqual(revisions);
    expect(withShownTitle(revisions, { title: null, source: null })).toEqual(revisions);
    expect(withShownTitle(revisions, null)).toEqual(revisions);
  });
  it("the same words from another source, or an older revision's title shown again, are a new current title", () => {
    expect(withShownTitle(revisions, { title: "Tidal physics", source: { kind: "user" } })[0]).toMatchObject({ title: "Tidal physics", source: { kind: "user" }, checkpointId: null });
    expect(withShownTitle(revisions, { title: "How do tides work", source: { kind: "user" } })).toHaveLength(3);
  });
  it("titles a conversation that has none in its checkpoints yet", () => {
    expect(withShownTitle([], { title: "Tides", source: { kind: "user" } })).toEqual([{ title: "Tides", source: { kind: "user" }, at: null, checkpointId: null }]);
  });
});
