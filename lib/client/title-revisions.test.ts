import { describe, expect, it } from "vitest";
import { titleRevisions, type HistoryEntry } from "./title-revisions";

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
