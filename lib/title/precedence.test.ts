import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { decideTitle, titleLeftBehind, type TitleFact, type TitleSourceKind } from "./precedence";

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

describe("decideTitle for a run's values (fromRun)", () => {
  const user = (title: string) => ({ title, source: { kind: "user" as const } });
  it("a user title in a run's values is accepted only when it is the thread's title already", () => {
    expect(decideTitle(CURRENT.user, user("My Title"), { fromRun: true }).accept).toBe(true);
    // An older rename a branch brought back replaces neither a newer rename nor an automatic title.
    for (const current of ["user", "fallback", "model", "none", "untracked", "user pin, no title"]) {
      expect(decideTitle(CURRENT[current], user("An older rename"), { fromRun: true }).accept).toBe(false);
    }
  });
  it("automatic titles in a run's values follow the plain rule", () => {
    for (const [current, expected] of Object.entries(TABLE)) {
      for (const [i, kind] of (["fallback", "model"] as const).entries()) {
        const proposed = { title: "New Title", source: { kind } };
        expect(decideTitle(CURRENT[current], proposed, { fromRun: true }).accept, `${current} ← ${kind}`).toBe(expected.plain[i]);
      }
    }
  });
});

describe("titleLeftBehind: the thread's title against a branch's head", () => {
  const fact = (title: string | null, kind: TitleSourceKind | null): TitleFact => ({ title, source: kind ? { kind } : null });
  it("carries the thread's rename into a branch that lacks it", () => {
    expect(titleLeftBehind(fact("Mine", "user"), fact("Fallback…", "fallback"))).toEqual({ title: "Mine", source: { kind: "user" } });
    expect(titleLeftBehind(fact("Mine", "user"), fact(null, null))).toEqual({ title: "Mine", source: { kind: "user" } });
    expect(titleLeftBehind(fact("New name", "user"), fact("Old name", "user"))).toEqual({ title: "New name", source: { kind: "user" } });
  });
  it("carries the thread's automatic title over an older rename the branch brought back", () => {
    expect(titleLeftBehind(fact("Regenerated", "model"), fact("Old name", "user"))).toEqual({ title: "Regenerated", source: { kind: "model" } });
    expect(titleLeftBehind(fact("Undone to this", "fallback"), fact("Old name", "user"))).toEqual({ title: "Undone to this", source: { kind: "fallback" } });
  });
  it("leaves a branch its own automatic title, and changes nothing when they agree or the thread has none", () => {
    expect(titleLeftBehind(fact("Thread's", "fallback"), fact("Branch's", "fallback"))).toBeNull();
    expect(titleLeftBehind(fact("Thread's", "model"), fact("Branch's", "fallback"))).toBeNull();
    expect(titleLeftBehind(fact("Same", "user"), fact("Same", "user"))).toBeNull();
    expect(titleLeftBehind(fact(null, null), fact("Old name", "user"))).toBeNull();
    expect(titleLeftBehind(null, fact("Old name", "user"))).toBeNull();
  });
  it("whatever the two facts, when the thread has a title the head is never left with a user title other than the thread's, and anything carried is the thread's", () => {
    const arb = fc.record({ title: fc.option(fc.constantFrom("A", "B", " ", ""), { nil: null }), source: fc.option(fc.record({ kind: fc.constantFrom<TitleSourceKind>("fallback", "model", "user") }), { nil: null }) });
    fc.assert(
      fc.property(arb, arb, (thread, head) => {
        const carried = titleLeftBehind(thread, head);
        const after = carried ?? head;
        const threadHasTitle = Boolean(thread.title?.trim()) && thread.source !== null;
        if (after.source?.kind === "user" && threadHasTitle) expect(after).toEqual({ title: thread.title, source: thread.source });
        if (carried) expect(carried).toEqual({ title: thread.title, source: thread.source });
      }),
    );
  });
});
