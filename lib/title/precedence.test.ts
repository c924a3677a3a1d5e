import { describe, expect, it } from "vitest";
import { decideTitle, type TitleFact, type TitleSourceKind } from "./precedence";

const CURRENT: Record<string, TitleFact> = {
  none: { title: null, source: null },
  fallback: { title: "Fallback…", source: { kind: "fallback" } },
  model: { title: "Model Title", source: { kind: "model", model: "gpt-4o-mini" } },
  user: { title: "My Title", source: { kind: "user" } },
  untracked: { title: "Legacy title", source: null },
  "empty model": { title: "", source: { kind: "model" } },
  "user pin, no title": { title: null, source: { kind: "user" } },
};

// Expected verdicts, written out by hand from the contract (not computed), so the table can fail.
// Columns: proposed fallback, model, user — first without regenerate, then with it.
const TABLE: Record<string, { plain: [boolean, boolean, boolean]; regenerate: [boolean, boolean, boolean] }> = {
  none: { plain: [true, true, true], regenerate: [true, true, true] },
  fallback: { plain: [true, true, true], regenerate: [true, true, true] },
  model: { plain: [false, true, true], regenerate: [true, true, true] },
  user: { plain: [false, false, true], regenerate: [true, true, true] },
  untracked: { plain: [true, true, true], regenerate: [true, true, true] },
  "empty model": { plain: [true, true, true], regenerate: [true, true, true] },
  "user pin, no title": { plain: [false, false, true], regenerate: [true, true, true] },
};

const KINDS: TitleSourceKind[] = ["fallback", "model", "user"];

describe("decideTitle: every current × proposed × regenerate", () => {
  const rows = Object.entries(TABLE).flatMap(([current, expected]) =>
    KINDS.flatMap((kind, i) => [
      [current, kind, false, expected.plain[i]] as const,
      [current, kind, true, expected.regenerate[i]] as const,
    ]),
  );

  it("covers 7 current states × 3 sources × 2 regenerate values", () => {
    expect(rows).toHaveLength(42);
  });

  it.each(rows)("current %s, proposed %s, regenerate %s → %s", (current, kind, regenerate, accept) => {
    const proposed = { title: "New Title", source: { kind, ...(kind === "model" ? { model: "m" } : {}) } };
    const decision = decideTitle(CURRENT[current], proposed, { regenerate });
    expect(decision.accept).toBe(accept);
    expect(decision.reason).toEqual(expect.any(String));
    expect(decision.reason.length).toBeGreaterThan(0);
  });
});

describe("decideTitle details", () => {
  it("opts may be omitted and default to no regenerate", () => {
    expect(decideTitle(CURRENT.user, { title: "x", source: { kind: "model" } }).accept).toBe(false);
    expect(decideTitle(CURRENT.none, { title: "x", source: { kind: "fallback" } }).accept).toBe(true);
  });

  it("an empty proposal is never accepted, whatever its source", () => {
    for (const kind of KINDS) {
      for (const regenerate of [false, true]) {
        expect(decideTitle(CURRENT.none, { title: "", source: { kind } }, { regenerate })).toEqual({
          accept: false,
          reason: "proposed title is empty",
        });
        expect(decideTitle(CURRENT.none, { title: "  ", source: { kind } }, { regenerate }).accept).toBe(false);
      }
    }
  });

  it("explains its verdicts", () => {
    expect(decideTitle(CURRENT.user, { title: "x", source: { kind: "model" } })).toEqual({
      accept: false,
      reason: "the user title is pinned",
    });
    expect(decideTitle(CURRENT.model, { title: "x", source: { kind: "user" } })).toEqual({
      accept: true,
      reason: "a user rename always wins",
    });
    expect(decideTitle(CURRENT.model, { title: "x", source: { kind: "fallback" } })).toEqual({
      accept: false,
      reason: "fallback title may not replace model title",
    });
    expect(decideTitle(CURRENT.none, { title: "x", source: { kind: "fallback" } })).toEqual({
      accept: true,
      reason: "no current title",
    });
  });

  it("a model title may replace a model title from another model", () => {
    expect(decideTitle(CURRENT.model, { title: "y", source: { kind: "model", model: "other" } }).accept).toBe(true);
  });
});
