import { describe, expect, it } from "vitest";
import { storeStatus } from "../workloads/store.mjs";
import { generatedPart, keepHandNotes, recorder, resultsMarkdown, storeTable, table, verdicts } from "./report.mjs";

const P = { steps: [], levels: [], exchangeN: 0, exchangeSample: 0, streamers: 0 };
const fig = (n, name, p50) => ({ n, name, p50, p95: p50 * 1.5 });
const store = {
  status: { sqlite: "run", postgres: "run" },
  results: {
    sqlite: [fig(1000, "store: title search, 1 match", 0.5), fig(10_000, "store: title search, 1 match", 0.6), fig(10_000, "api: first page (SDK, lean request)", 40)],
    postgres: [fig(10_000, "store: title search, 1 match", 1.2), fig(10_000, "store: title search, the oldest 1000 (t000)", 31)],
  },
};

describe("store-scale's figures in the report", () => {
  it("judges every title-search shape at the largest N on each database, and only those", () => {
    const v = verdicts(recorder(), P, store);
    expect(v.map((x) => [x.what.includes("SQLite") ? "sqlite" : "postgres", x.ok])).toEqual([
      ["sqlite", true], // the 40 ms first page is not a title search; the 1k row is not the largest N
      ["postgres", false],
    ]);
    expect(v[1].figure).toContain("the oldest 1000 (t000) 31.0 ms");
  });

  it("puts both databases side by side, a blank where one lacks a figure", () => {
    const rows = storeTable(store).split("\n");
    expect(rows[0]).toBe("| N | measure | SQLite p50 / p95 ms | Postgres p50 / p95 ms |");
    expect(rows).toContain("| 10k | store: title search, 1 match | 0.60 / 0.90 | 1.20 / 1.80 |");
    expect(rows).toContain("| 1k | store: title search, 1 match | 0.50 / 0.75 |  |");
  });

  it("says when Postgres failed, and judges only the database that has figures", () => {
    const md = resultsMarkdown({ rec: recorder(), p: P, m: { cores: 2, cpu: "x", ramGb: "1", node: "v", os: "o", chromium: "c", commit: "h", packages: "" }, command: "c", startedAt: "s", minutes: "1", load: { start: "0.1", end: "0.1" }, errors: [], method: "m", store: { status: { sqlite: "run", postgres: "failed (see Errors)" }, results: { sqlite: store.results.sqlite } } });
    expect(md).toContain("Postgres: failed (see Errors)");
    expect(md).not.toContain("Postgres p50");
    expect(md).not.toMatch(/title search ≤ 30 ms p50 on Postgres/);
    expect(md).toMatch(/title search ≤ 30 ms p50 on SQLite/);
  });

  it("names each database run when it has figures, failed when it has none, failed after the N it finished when it stopped part-way, and Postgres not run without a URL", () => {
    expect(storeStatus("postgres://x", { sqlite: [], postgres: [] })).toEqual({ sqlite: "run", postgres: "run" });
    expect(storeStatus("postgres://x", { sqlite: [] })).toEqual({ sqlite: "run", postgres: "failed (see Errors)" });
    const partial = [{ n: 300, name: "a" }, { n: 300, name: "b" }, { n: 1000, name: "a" }];
    expect(storeStatus("postgres://x", { sqlite: [], postgres: partial }, new Set(["postgres"]))).toEqual({ sqlite: "run", postgres: "failed after N=300, 1000 (see Errors)" });
    expect(storeStatus(null, {})).toMatchObject({ sqlite: "failed (see Errors)", postgres: expect.stringMatching(/^not run: set BENCH_DATABASE_URL/) });
  });
});

describe("the first page beside the control", () => {
  const TL = { name: "Threadline" };
  const steps = (vs) => {
    const rec = recorder();
    for (const n of [1000, 10_000]) rec.value(`create.${n}`, TL, 100);
    for (const [n, r] of vs) rec.value(`page.vscontrol.${n}`, TL, r, `x ms at N=${n} vs y ms on the control at N=900, taking turns`);
    return verdicts(rec, { ...P, steps: [1000, 10_000] }).filter((v) => v.what.includes("beside the control (≤ 1.2×"));
  };
  it("is judged at the largest N reached, met at 1.2× and missed above it", () => {
    expect(steps([[1000, 3], [10_000, 1.2]])).toEqual([expect.objectContaining({ ok: true, figure: expect.stringContaining("on the control at N=900") })]);
    expect(steps([[1000, 1], [10_000, 1.25]]).map((v) => v.ok)).toEqual([false]);
  });
  it("is not judged from a smaller N when the largest has no such figure", () => {
    expect(steps([[1000, 1]])).toEqual([]);
  });
});

describe("the first page against GET /info in the report", () => {
  const TL = { name: "Threadline" };
  const judged = (figures) => {
    const rec = recorder();
    for (const n of [10_000, 100_000]) rec.value(`create.${n}`, TL, 100);
    for (const [key, v] of Object.entries(figures)) rec.value(key, TL, v);
    return verdicts(rec, { ...P, steps: [10_000, 100_000], streamers: 50 }).filter((v) => /GET \/info|\/info's p95|its p95|flat from/.test(v.what));
  };
  it("judges the p95 beside the p50, idle and while runs stream, and the p95's flatness", () => {
    const v = judged({
      "page.100000.p50": 2.2, "info.100000.p50": 2, "pageinfo.100000": 1.1,
      "page.100000.p95": 4, "info.100000.p95": 2.5, "pageinfo95.100000": 1.6,
      "busy.100000.p95": 3, "busyinfo.100000.p95": 2.9, "busyratio95.100000": 3 / 2.9,
      "page.10000.p50": 2, "page.10000.p95": 2,
    });
    const byWhat = Object.fromEntries(v.map((x) => [x.what, x.ok]));
    expect(byWhat["first page within 1.2× GET /info at N=100k"]).toBe(true);
    expect(byWhat["…its p95 within 1.2× /info's p95 at N=100k"]).toBe(false);
    expect(byWhat["…its p95 while 50 runs stream, N=100k"]).toBe(true);
    expect(byWhat["first page flat from 10k to 100k (≤ 1.2×)"]).toBe(true);
    expect(byWhat["…and its p95 (≤ 1.2×)"]).toBe(false);
  });
  it("puts the ratio of a Next app doing no work beside the idle figures, and judges by Threadline's alone", () => {
    const rec = recorder();
    for (const n of [10_000, 100_000]) rec.value(`create.${n}`, TL, 100);
    for (const [key, v] of Object.entries({ "page.10000.p50": 2, "info.10000.p50": 1, "pageinfo.10000": 2, "page.10000.p95": 3, "info.10000.p95": 2, "pageinfo95.10000": 1.5 })) rec.value(key, TL, v);
    rec.value("floor.pageinfo.10000", TL, 1.35, "1.35 vs 1.00 ms");
    rec.value("floor.pageinfo95.10000", TL, 1.1, "2.20 vs 2.00 ms");
    const v = verdicts(rec, { ...P, steps: [10_000, 100_000], streamers: 50 });
    const p50 = v.find((x) => x.what === "first page within 1.2× GET /info at N=10k");
    expect(p50).toMatchObject({ ok: false, figure: "2.00 vs 1.00 ms (2.00×); a Next app doing no work: 1.35× (1.35 vs 1.00 ms)" });
    expect(v.find((x) => x.what === "…its p95 within 1.2× /info's p95 at N=10k")?.figure).toContain("a Next app doing no work: 1.10× (2.20 vs 2.00 ms)");
    expect(v.find((x) => x.what === "first page within 1.2× GET /info at N=100k")).toBeUndefined();
  });
});

describe("concurrent streams in the report", () => {
  const TL = { name: "Threadline" };
  it("judges 0 errors at every level, and the first event and the gap at the largest", () => {
    const rec = recorder();
    rec.value("conc.50.errors", TL, 0, "all done in 1s");
    rec.value("conc.100.errors", TL, 2, "all done in 2s");
    rec.value("conc.200.errors", TL, 0, "1 unfinished");
    rec.value("conc.200.first", TL, 90);
    rec.value("conc.200.gap", TL, 60);
    rec.value("floor.conc.200.gap", TL, 52, "includes the recorded run's own pace (20 ms a token; its largest gap 31.0 ms)");
    const v = verdicts(rec, { ...P, levels: [50, 100, 200] }).filter((x) => x.what.includes("concurrent streams"));
    expect(v.map((x) => [x.what, x.ok])).toEqual([
      ["50 concurrent streams: 0 errors", true],
      ["100 concurrent streams: 0 errors", false],
      ["200 concurrent streams: 0 errors", false],
      ["200 concurrent streams: first event p50 ≤ 100 ms", true],
      ["200 concurrent streams: inter-event gap p99 ≤ 50 ms", false],
    ]);
    // The no-work server's figure goes beside Threadline's where it was measured, and only there.
    expect(v.find((x) => x.what.includes("gap p99"))?.figure).toBe("60.0 ms; a server doing no work: 52.0 ms (includes the recorded run's own pace (20 ms a token; its largest gap 31.0 ms))");
    expect(v.find((x) => x.what.includes("first event"))?.figure).toBe("90.0 ms");
  });

  it("quotes the replay through a Next app doing no work beside the plain replay, and the gap without each run's first; lists their rows", () => {
    const rec = recorder();
    rec.value("conc.200.errors", TL, 0, "all done in 5s");
    rec.value("conc.200.first", TL, 500);
    rec.value("conc.200.gap", TL, 900);
    rec.value("conc.200.gapLater", TL, 150);
    rec.value("floor.conc.200.first", TL, 70, "replaying a run of 44 events");
    rec.value("floor.next.200.first", TL, 180, "replaying a run of 44 events");
    rec.value("floor.next.200.gap", TL, 81, "includes the recorded run's own pace");
    const v = verdicts(rec, { ...P, levels: [200] });
    expect(v.find((x) => x.what.includes("first event"))?.figure).toBe("500 ms; a server doing no work: 70.0 ms; a Next app doing no work: 180 ms");
    expect(v.find((x) => x.what.includes("gap p99"))?.figure).toBe("900 ms; without each run's first gap 150 ms; a Next app doing no work: 81.0 ms");
    // The gap without each run's first is a row of its own; the verdict stays on every gap.
    expect(v.find((x) => x.what.includes("gap p99"))?.ok).toBe(false);
    const rows = table(rec, { ...P, levels: [200] }).split("\n");
    expect(rows.find((r) => r.startsWith("| 6 200 streams from a Next app doing no work | first event p50 |"))).toContain("| 180 ms |");
    expect(rows.find((r) => r.startsWith("| 6 200 concurrent streams | gap p99 after each run's first gap |"))).toContain("| 150 ms |");
    expect(rows.find((r) => r.startsWith("| 6 200 streams from a Next app doing no work | inter-event gap p99 |"))).toContain("no-work server: includes the recorded run's own pace");
  });
});

describe("a full run keeps the hand notes of the runs before it", () => {
  const generated = (commit, figure) => `# Benchmark results\n\n- **Versions:** Node v20; next 16; commit ${commit}\n\n## Results\n\n| page | ${figure} |\n`;
  const notesOf = (line) => `## Notes on this run (written by hand after it)\n\n- ${line}\n`;

  it("names the last run's notes by its commit and where its tables stay, and opens empty notes for the new run", () => {
    const before = `${generated("abc1234", "2.1 ms")}\n${notesOf("the first run's note")}\n## Notes on 1111111's run (the full run before this one; its tables: \`git show 2222222:bench/RESULTS.md\`)\n\n- an older note\n`;
    const out = keepHandNotes(before, generated("def5678", "1.9 ms"), "3333333");
    expect(out.startsWith(generated("def5678", "1.9 ms").trimEnd())).toBe(true);
    expect(out).not.toContain("2.1 ms");
    expect(out.match(/^## Notes on .*$/gm)).toEqual([
      "## Notes on this run (written by hand after it)",
      "## Notes on abc1234's run (the full run before this one; its tables: `git show 3333333:bench/RESULTS.md`)",
      "## Notes on 1111111's run (the full run before abc1234's; its tables: `git show 2222222:bench/RESULTS.md`)",
    ]);
    expect(out).toContain("- the first run's note");
    expect(out).toContain("- an older note");
  });

  it("chains again on the next run, and says so when the last run's tables were never committed", () => {
    const once = keepHandNotes(`${generated("abc1234", "2.1 ms")}\n${notesOf("first")}`, generated("def5678", "1.9 ms"), "3333333");
    const twice = keepHandNotes(once, generated("9999999", "1.8 ms"), null);
    expect(twice.match(/^## Notes on .*$/gm)).toEqual([
      "## Notes on this run (written by hand after it)",
      "## Notes on def5678's run (the full run before this one; its tables were not committed)",
      "## Notes on abc1234's run (the full run before def5678's; its tables: `git show 3333333:bench/RESULTS.md`)",
    ]);
  });

  it("takes the last run's commit from its header, not from a commit its notes quote, and keeps a reworded heading's place", () => {
    const before = `${generated("abc1234 with uncommitted changes", "2.1 ms")}\n## Notes on this run (by hand, late)\n\n- see the line ending in ; commit deadbee\n`;
    const out = keepHandNotes(before, generated("def5678", "1.9 ms"), null);
    expect(out.match(/^## Notes on .*$/gm)).toEqual([
      "## Notes on this run (written by hand after it)",
      "## Notes on abc1234's run (with uncommitted changes) (the full run before this one; its tables were not committed)",
    ]);
  });

  it("compares only the tables when it asks whether they are committed: notes edited since do not count", () => {
    const committed = `${generated("abc1234", "2.1 ms")}\n${notesOf("first draft")}`;
    expect(generatedPart(`${generated("abc1234", "2.1 ms")}\n${notesOf("edited during the next run")}`)).toBe(generatedPart(committed));
    expect(generatedPart(`${generated("abc1234", "2.2 ms")}\n${notesOf("first draft")}`)).not.toBe(generatedPart(committed));
    expect(generatedPart(generated("abc1234", "2.1 ms"))).toBe(generated("abc1234", "2.1 ms").trim());
  });

  it("says a run's notes were never written when the next run comes and its section still says none yet", () => {
    const once = keepHandNotes(`${generated("abc1234", "2.1 ms")}\n${notesOf("first")}`, generated("def5678", "1.9 ms"), "3333333");
    expect(once).toContain("## Notes on this run (written by hand after it)\n\n- None yet.\n");
    const twice = keepHandNotes(once, generated("9999999", "1.8 ms"), null);
    expect(twice.match(/- None yet\./g)).toHaveLength(1);
    expect(twice).toContain("## Notes on def5678's run (the full run before this one; its tables were not committed)\n\n- No notes were written for this run.\n");
    expect(twice).toContain("- first");
    expect(twice.endsWith("- first\n")).toBe(true);
  });

  it("keeps notes written under a \"None yet.\" line as they are", () => {
    const once = keepHandNotes(`${generated("abc1234", "2.1 ms")}\n${notesOf("first")}`, generated("def5678", "1.9 ms"), "3333333");
    const written = once.replace("- None yet.\n", "- None yet.\n- the gap p99 was made of each run's first gap\n");
    const twice = keepHandNotes(written, generated("9999999", "1.8 ms"), null);
    expect(twice).toContain("## Notes on def5678's run (the full run before this one; its tables were not committed)\n\n- None yet.\n- the gap p99 was made of each run's first gap\n");
    expect(twice).not.toContain("No notes were written");
    // The last section, never written, at the end of the file.
    const last = keepHandNotes(generated("abc1234", "2.1 ms") + "\n## Notes on this run (written by hand after it)\n\n- None yet.\n", generated("def5678", "1.9 ms"), null);
    expect(last.endsWith("## Notes on abc1234's run (the full run before this one; its tables were not committed)\n\n- No notes were written for this run.\n")).toBe(true);
  });

  it("writes the fresh file alone when there were no notes", () => {
    expect(keepHandNotes(generated("abc1234", "2.1 ms"), generated("def5678", "1.9 ms"), "3333333")).toBe(generated("def5678", "1.9 ms"));
  });
});

describe("the other targets in the report", () => {
  const TL = { name: "Threadline" };
  const judged = (fill, p = {}) => {
    const rec = recorder();
    fill(rec);
    return verdicts(rec, { ...P, ...p });
  };
  const one = (v, start) => v.find((x) => x.what.startsWith(start));

  it("create throughput: every later step at ≥ 80 % of the first, a dip at a middle N not hidden by the last", () => {
    const steps = { steps: [1000, 10_000, 100_000] };
    const flat = judged((r) => [[1000, 200], [10_000, 170], [100_000, 161]].forEach(([n, v]) => r.value(`create.${n}`, TL, v)), steps);
    expect(one(flat, "create throughput flat")).toMatchObject({ ok: true, figure: "200/s at 1k → 170/s up to 10k, 161/s up to 100k (lowest 81 %)" });
    const dip = judged((r) => [[1000, 200], [10_000, 150], [100_000, 190]].forEach(([n, v]) => r.value(`create.${n}`, TL, v)), steps);
    expect(one(dip, "create throughput flat")).toMatchObject({ ok: false, figure: expect.stringContaining("(lowest 75 %)") });
    // One step reached: nothing to judge.
    expect(one(judged((r) => r.value("create.1000", TL, 200), steps), "create throughput flat")).toBeUndefined();
  });

  it("create + first exchange: each batch against the one at the warm N", () => {
    const p = { steps: [1000, 10_000], exchangeN: 1000, exchangeSample: 500 };
    const v = judged((r) => {
      r.value("exchange.1000", TL, 50);
      r.value("exchange.10000", TL, 39);
    }, p);
    expect(one(v, "create + first exchange throughput flat")).toMatchObject({ what: expect.stringContaining("each batch of 500 ≥ 80 % of the one at N=500"), ok: false, figure: "50/s at 500 → 39/s at 10k (lowest 78 %)" });
    // Exactly 80 % is flat; a dip at a middle N decides.
    const three = (mid) => one(judged((r) => [[1000, 50], [10_000, mid], [100_000, 50]].forEach(([n, x]) => r.value(`exchange.${n}`, TL, x)), { ...p, steps: [1000, 10_000, 100_000] }), "create + first exchange throughput flat");
    expect(three(40).ok).toBe(true);
    expect(three(39.9).ok).toBe(false);
  });

  it("beside the control: the lowest ratio at any N decides, judged from two Ns on", () => {
    const p = { steps: [1000, 10_000, 100_000], exchangeN: 1000, exchangeSample: 500 };
    const v = judged((r) => {
      [[1000, 1.01], [10_000, 0.79], [100_000, 0.95]].forEach(([n, x]) => r.value(`exchange.vscontrol.${n}`, TL, x));
      [[1000, 0.96], [10_000, 0.9]].forEach(([n, x]) => r.value(`create.vscontrol.${n}`, TL, x));
    }, p);
    expect(one(v, "create + first exchange flat as N grows, beside")).toMatchObject({ ok: false, figure: "1.01× at 500, 0.79× at 10k, 0.95× at 100k" });
    expect(one(v, "create + titled state flat as N grows, beside")).toMatchObject({ ok: true, figure: "0.96× at 1k, 0.90× at 10k" });
    expect(one(judged((r) => r.value("create.vscontrol.1000", TL, 0.5), p), "create + titled state flat")).toBeUndefined();
    const edge = judged((r) => [[1000, 1], [10_000, 0.8]].forEach(([n, x]) => r.value(`create.vscontrol.${n}`, TL, x)), p);
    expect(one(edge, "create + titled state flat as N grows, beside").ok).toBe(true);
  });

  it("title search through the SDK at the largest N reached, narrow and broad, ≤ 30 ms", () => {
    const v = judged((r) => {
      r.value("create.1000", TL, 100);
      r.value("create.10000", TL, 100);
      r.value("search.10000.narrow", TL, 12);
      r.value("search.10000.broad", TL, 31);
    }, { steps: [1000, 10_000, 100_000] }); // 100k never reached: judged at the largest N reached
    expect(one(v, "title search ≤ 30 ms p50, narrow")).toMatchObject({ what: expect.stringContaining("N=10k"), ok: true, figure: "12.0 ms" });
    expect(one(v, "title search ≤ 30 ms p50, matching every thread")).toMatchObject({ ok: false, figure: "31.0 ms" });
  });

  it("the instant title must reach a values event before the first token", () => {
    const at = (title, token) => one(judged((r) => (r.value("title.on.p50", TL, title), r.value("token.on.p50", TL, token))), "instant title on");
    expect(at(18, 120)).toMatchObject({ ok: true, figure: "18.0 vs 120 ms" });
    expect(at(120, 120).ok).toBe(false);
  });

  it("exactly one model call per conversation: the most and the fewest both 1", () => {
    const calls = (max, note) => one(judged((r) => r.value("calls.on", TL, max, note)), "exactly 1 model call");
    expect(calls(1, "min 1, max 1 over 20 conversations").ok).toBe(true);
    expect(calls(2, "min 1, max 2 over 20 conversations").ok).toBe(false);
    expect(calls(1, "min 0, max 1 over 20 conversations").ok).toBe(false);
  });

  it("the sidebar: painted ≤ 300 ms, ≤ 80 rows, no long task, and the scroll must have reached the end", () => {
    const ui = ({ painted = 200, rows = 50, longtasks = 0, reached = true } = {}) =>
      judged((r) => {
        r.value("ui.painted", TL, painted, "10000 conversations");
        r.value("ui.visible", TL, painted > 300 ? 250 : painted + 100); // judged on the paint, not the poll
        r.value("ui.rows", TL, rows);
        r.value("ui.longtasks", TL, longtasks, reached ? "reached the oldest of 10000 after 544 screens" : "stopped after 90 s");
      }).filter((x) => x.what.startsWith("sidebar")).map((x) => x.ok);
    expect(ui()).toEqual([true, true, true]);
    expect(ui({ painted: 301 })).toEqual([false, true, true]);
    expect(ui({ painted: 300, rows: 80 })).toEqual([true, true, true]);
    expect(ui({ rows: 81 })).toEqual([true, false, true]);
    expect(ui({ longtasks: 1 })).toEqual([true, true, false]);
    expect(ui({ reached: false })).toEqual([true, true, false]);
  });
});
