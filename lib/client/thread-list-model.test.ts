import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildThreadListModel, dateGroupOf, patchedTitles, sameRowView } from "./thread-list-model";
import type { RowPatches, ThreadPage, ThreadRow } from "./types";

// A fixed local "now": 15 June 2024, 12:00 local time.
const NOW = new Date(2024, 5, 15, 12, 0, 0).getTime();
const daysAgo = (d: number, hour = 10) => new Date(2024, 5, 15 - d, hour, 0, 0).toISOString();

function row(id: string, activityAt: string, extra: Partial<ThreadRow> = {}): ThreadRow {
  return {
    id,
    createdAt: activityAt,
    activityAt,
    status: "idle",
    starred: false,
    title: { title: `Title ${id}`, source: { kind: "model" } },
    ...extra,
  };
}
const page = (rows: ThreadRow[], fetchedAt = 100): ThreadPage => ({ rows, fetchedAt, nextOffset: null, asOf: "x" });
const labels = (m: ReturnType<typeof buildThreadListModel>) =>
  m.items.map((i) => (i.kind === "header" ? `# ${i.label}` : i.row.id));

describe("dateGroupOf", () => {
  it("groups by local calendar day", () => {
    expect(dateGroupOf(daysAgo(0, 1), NOW)).toBe("Today");
    expect(dateGroupOf(new Date(NOW + 60_000).toISOString(), NOW)).toBe("Today");
    expect(dateGroupOf(daysAgo(1, 23), NOW)).toBe("Yesterday");
    expect(dateGroupOf(daysAgo(1, 0), NOW)).toBe("Yesterday");
    expect(dateGroupOf(daysAgo(2), NOW)).toBe("Previous 7 days");
    expect(dateGroupOf(daysAgo(7), NOW)).toBe("Previous 7 days");
    expect(dateGroupOf(daysAgo(8), NOW)).toBe("Previous 30 days");
    expect(dateGroupOf(daysAgo(30), NOW)).toBe("Previous 30 days");
    expect(dateGroupOf(daysAgo(31), NOW)).toBe("Older");
    expect(dateGroupOf("not a date", NOW)).toBe("Older");
  });
});

describe("buildThreadListModel", () => {
  it("orders by activity and inserts group headers", () => {
    const m = buildThreadListModel(
      [page([row("old", daysAgo(90)), row("today", daysAgo(0)), row("yday", daysAgo(1)), row("week", daysAgo(3)), row("month", daysAgo(20))])],
      {},
      NOW,
    );
    expect(labels(m)).toEqual([
      "# Today", "today",
      "# Yesterday", "yday",
      "# Previous 7 days", "week",
      "# Previous 30 days", "month",
      "# Older", "old",
    ]);
  });

  it("puts starred rows first, in their own group, most recent first", () => {
    const m = buildThreadListModel(
      [page([row("a", daysAgo(0)), row("s-old", daysAgo(40), { starred: true }), row("s-new", daysAgo(2), { starred: true })])],
      {},
      NOW,
    );
    expect(labels(m)).toEqual(["# Starred", "s-new", "s-old", "# Today", "a"]);
  });

  it("shows an old starred thread (from the starred page) above recent ones", () => {
    const starredPage = page([row("old-star", daysAgo(200), { starred: true })], 90);
    const m = buildThreadListModel([starredPage, page([row("a", daysAgo(0)), row("old-star", daysAgo(200), { starred: true })])], {}, NOW);
    expect(labels(m)).toEqual(["# Starred", "old-star", "# Today", "a"]);
  });

  it("rebuilt over the same pages, reuses unchanged rows' views yet follows a new patch, day or zone", () => {
    const pages = [page([row("a", daysAgo(0, 9)), row("b", daysAgo(1))])];
    const first = buildThreadListModel(pages, {}, NOW);
    const again = buildThreadListModel(pages, {}, NOW);
    expect(again.byId.get("a")).toBe(first.byId.get("a"));
    const starred = buildThreadListModel(pages, { b: { starred: true } }, NOW);
    expect(labels(starred)).toEqual(["# Starred", "b", "# Today", "a"]);
    expect(starred.byId.get("a")).toBe(first.byId.get("a"));
    // A day later, "Today" is "Yesterday" (the view is not taken from the cache).
    const tomorrow = buildThreadListModel(pages, {}, NOW + 86_400_000);
    expect(labels(tomorrow)).toEqual(["# Yesterday", "a", "# Previous 7 days", "b"]);
    // The same rows at another fetch instant are resolved again (live facts are ordered by it).
    const later = page(pages[0].rows, 900);
    const patches: RowPatches = { a: { stream: { fact: { title: "Live", source: { kind: "model" } }, at: 500 } } };
    expect(buildThreadListModel(pages, patches, NOW).byId.get("a")?.title).toBe("Live");
    expect(buildThreadListModel([later], patches, NOW).byId.get("a")?.title).toBe("Title a");
  });

  it("applies an optimistic star/unstar patch", () => {
    const pages = [page([row("a", daysAgo(0)), row("b", daysAgo(5), { starred: true })])];
    const m = buildThreadListModel(pages, { a: { starred: true }, b: { starred: false } }, NOW);
    expect(labels(m)).toEqual(["# Starred", "a", "# Previous 7 days", "b"]);
  });

  it("dedupes a thread seen on two pages, keeping the fresher copy", () => {
    const m = buildThreadListModel(
      [
        page([row("a", daysAgo(0), { title: { title: "stale", source: { kind: "fallback" } } })], 100),
        page([row("a", daysAgo(0), { title: { title: "fresh", source: { kind: "model" } } }), row("b", daysAgo(0))], 200),
      ],
      {},
      NOW,
    );
    expect(m.rows.map((r) => r.id).sort()).toEqual(["a", "b"]);
    expect(m.byId.get("a")?.title).toBe("fresh");
  });

  it("patches one row's title in place without moving or touching the others", () => {
    const pages = [page([row("a", daysAgo(0, 11)), row("b", daysAgo(0, 10)), row("c", daysAgo(0, 9))])];
    const before = buildThreadListModel(pages, {}, NOW);
    const patches: RowPatches = { b: { stream: { fact: { title: "Live", source: { kind: "model" } }, at: 500 } } };
    const after = buildThreadListModel(pages, patches, NOW);
    expect(labels(after)).toEqual(labels(before));
    expect(after.byId.get("b")?.title).toBe("Live");
    expect(sameRowView(before.byId.get("a")!, after.byId.get("a")!)).toBe(true);
    expect(sameRowView(before.byId.get("c")!, after.byId.get("c")!)).toBe(true);
    expect(sameRowView(before.byId.get("b")!, after.byId.get("b")!)).toBe(false);
  });

  it("adds a draft row (instant title) on top with a pending shimmer", () => {
    const pages = [page([row("a", daysAgo(0, 9))])];
    const patches: RowPatches = {
      n: {
        draft: { createdAt: daysAgo(0, 11) },
        busy: true,
        stream: { fact: { title: "hello there", source: { kind: "fallback" } }, at: 300, local: true },
      },
    };
    const m = buildThreadListModel(pages, patches, NOW);
    expect(labels(m)).toEqual(["# Today", "n", "a"]);
    expect(m.byId.get("n")).toMatchObject({ title: "hello there", pending: true, busy: true });
  });

  it("leaves drafts out of search results", () => {
    const m = buildThreadListModel([page([])], { n: { draft: { createdAt: daysAgo(0) } } }, NOW, { includeDrafts: false });
    expect(m.rows).toEqual([]);
  });

  it("does not duplicate a draft once a page holds the thread", () => {
    const m = buildThreadListModel([page([row("n", daysAgo(0))])], { n: { draft: { createdAt: daysAgo(0) } } }, NOW);
    expect(m.rows.map((r) => r.id)).toEqual(["n"]);
  });

  it("hides deleted rows", () => {
    const m = buildThreadListModel([page([row("a", daysAgo(0)), row("b", daysAgo(0))])], { a: { deleted: true } }, NOW);
    expect(m.rows.map((r) => r.id)).toEqual(["b"]);
    expect(m.byId.has("a")).toBe(false);
  });

  it("moves a row to the top when this tab starts a run in it", () => {
    const pages = [page([row("a", daysAgo(0, 11)), row("b", daysAgo(3))])];
    const m = buildThreadListModel(pages, { b: { activityAt: new Date(NOW).toISOString(), busy: true } }, NOW);
    expect(labels(m)).toEqual(["# Today", "b", "a"]);
  });

  it("shows a pending shimmer for a busy untitled row, none for an idle one", () => {
    const pages = [page([row("a", daysAgo(0), { status: "busy", title: { title: null, source: null } }), row("b", daysAgo(0), { title: { title: null, source: null } })])];
    const m = buildThreadListModel(pages, {}, NOW);
    expect(m.byId.get("a")?.pending).toBe(true);
    expect(m.byId.get("b")?.pending).toBe(false);
  });

  it("a row fetched busy is idle once this tab saw its run end after the fetch, and busy again for a newer fetch", () => {
    const pages = [page([row("a", daysAgo(0), { status: "busy" })], 100)];
    expect(buildThreadListModel(pages, {}, NOW).byId.get("a")?.busy).toBe(true);
    expect(buildThreadListModel(pages, { a: { busy: false, busyAt: 200 } }, NOW).byId.get("a")?.busy).toBe(false);
    // What this tab learnt before the page was fetched is older than the page.
    expect(buildThreadListModel(pages, { a: { busy: false, busyAt: 50 } }, NOW).byId.get("a")?.busy).toBe(true);
    const idle = [page([row("a", daysAgo(0))], 100)];
    expect(buildThreadListModel(idle, { a: { busy: true, busyAt: 200 } }, NOW).byId.get("a")?.busy).toBe(true);
    expect(buildThreadListModel(idle, { a: { busy: true, busyAt: 50 } }, NOW).byId.get("a")?.busy).toBe(true);
    expect(buildThreadListModel(idle, { a: { busy: false, busyAt: 50 } }, NOW).byId.get("a")?.busy).toBe(false);
  });

  it("keeps the user's pinned title over a later automatic stream title", () => {
    const pages = [page([row("a", daysAgo(0), { title: { title: "Mine", source: { kind: "user" } } })], 100)];
    const m = buildThreadListModel(pages, { a: { stream: { fact: { title: "Model", source: { kind: "model" } }, at: 200 } } }, NOW);
    expect(m.byId.get("a")).toMatchObject({ title: "Mine", source: { kind: "user" } });
  });

  it("handles 1,000 rows stably", () => {
    const rows = Array.from({ length: 1000 }, (_, i) => row(`t${i}`, new Date(NOW - i * 3_600_000).toISOString()));
    const pages = Array.from({ length: 20 }, (_, p) => page(rows.slice(p * 50, p * 50 + 50)));
    const m = buildThreadListModel(pages, {}, NOW);
    expect(m.rows).toHaveLength(1000);
    expect(m.rows[0].id).toBe("t0");
    expect(m.items.filter((i) => i.kind === "header").map((i) => (i.kind === "header" ? i.label : ""))).toEqual([
      "Today", "Yesterday", "Previous 7 days", "Previous 30 days", "Older",
    ]);
  });
});

describe("buildThreadListModel while a long list scrolls in", () => {
  // Fresh objects: a build that nothing before it can be reused for (the whole build).
  const copy = (pages: ThreadPage[]) => pages.map((p) => ({ ...p, rows: p.rows.map((r) => ({ ...r })) }));
  const olderPages = (n: number, size: number) =>
    Array.from({ length: n }, (_, p) =>
      page(Array.from({ length: size }, (_, i) => row(`t${p * size + i}`, new Date(NOW - (p * size + i) * 3_600_000).toISOString())), 100 + p),
    );

  it("extends the last model when a page of older threads is added, reusing its items", () => {
    const pages = olderPages(3, 20);
    const patches: RowPatches = {}; // the same object, as the tab's patch store hands out until a patch changes
    const two = buildThreadListModel(pages.slice(0, 2), patches, NOW);
    const three = buildThreadListModel(pages, patches, NOW);
    expect(three.items[0]).toBe(two.items[0]);
    expect(buildThreadListModel(pages, patches, NOW + 60_000)).toBe(three); // a second list, or the clock's tick
    expect(three.items[two.items.length - 1]).toBe(two.items.at(-1));
    expect(three).toEqual(buildThreadListModel(copy(pages), {}, NOW));
    expect(three.rows.map((r) => r.id)).toEqual(Array.from({ length: 60 }, (_, i) => `t${i}`));

    // The next page repeats the last page's last rows (pages overlap), one of them retitled.
    const [t58, t59] = pages[2].rows.slice(-2);
    const overlapping = page([t58, { ...t59, title: { title: "Renamed", source: { kind: "user" } } }, row("t60", new Date(NOW - 60 * 3_600_000).toISOString())], 200);
    const four = buildThreadListModel([...pages, overlapping], patches, NOW);
    expect(four.items[0]).toBe(three.items[0]);
    expect(four.rows.slice(-3).map((r) => [r.id, r.title])).toEqual([["t58", "Title t58"], ["t59", "Renamed"], ["t60", "Title t60"]]);
    expect(four.byId.get("t59")?.title).toBe("Renamed");
    expect(four).toEqual(buildThreadListModel(copy([...pages, overlapping]), patches, NOW));
  });

  it("builds whole again when the patches changed, a repeated thread moved, or a new row sorts earlier", () => {
    const pages = olderPages(2, 5);
    const one = buildThreadListModel(pages.slice(0, 1), {}, NOW);
    const patched = buildThreadListModel(pages, { t6: { starred: true } }, NOW);
    expect(patched.items[0]).not.toBe(one.items[0]);
    expect(labels(patched).slice(0, 2)).toEqual(["# Starred", "t6"]);

    const repeat = page([row("t0", daysAgo(0, 11)), row("z", daysAgo(40))], 500);
    const withRepeat = buildThreadListModel([pages[0], repeat], {}, NOW);
    expect(withRepeat.rows.map((r) => r.id)).toEqual(["t0", "t1", "t2", "t3", "t4", "z"]);
    expect(withRepeat.rows[0].activityAt).toBe(daysAgo(0, 11));

    const newer = page([row("fresh", new Date(NOW).toISOString())], 600);
    expect(buildThreadListModel([pages[0], newer], {}, NOW).rows[0].id).toBe("fresh");
  });

  it("gives what the whole build gives, for any pages added one by one (property)", () => {
    const rowArb = fc.record({
      id: fc.constantFrom(...Array.from({ length: 30 }, (_, i) => `id${i}`)),
      hoursAgo: fc.oneof(fc.integer({ min: -2, max: 24 * 60 }), fc.constant(Number.NaN)),
      starred: fc.boolean(),
    });
    const patchArb = fc.dictionary(
      fc.constantFrom(...Array.from({ length: 30 }, (_, i) => `id${i}`)),
      fc.record({ deleted: fc.boolean(), starred: fc.boolean(), draft: fc.constant({ createdAt: daysAgo(0, 9) }) }, { requiredKeys: [] }),
    );
    fc.assert(
      // `older`: each page's threads are older than the last page's, as a list scrolling in gets
      // them; `overlap`: each page starts with the last page's last two threads (as the sidebar's
      // pages do), retitled or not; `fetched`: when each page was fetched, from a few instants so
      // pages tie or come older than the one before; `patchSteps`: the patches of each step in
      // turn, so they change between steps or stay the very same object.
      fc.property(
        fc.array(fc.array(rowArb, { maxLength: 8 }), { minLength: 1, maxLength: 8 }),
        fc.array(patchArb, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom("none", "same", "retitled"),
        fc.array(fc.integer({ min: 100, max: 103 }), { minLength: 8, maxLength: 8 }),
        (spec, patchSteps, includeDrafts, older, overlap, fetched) => {
          const at = (hoursAgo: number, p: number) =>
            Number.isNaN(hoursAgo) ? "not a date" : new Date(NOW - (older ? p * 10_000 + Math.abs(hoursAgo) : hoursAgo) * 3_600_000).toISOString();
          const pages: ThreadPage[] = [];
          spec.forEach((rows, p) => {
            const repeated = overlap === "none" || p === 0 ? [] : pages[p - 1].rows.slice(-2);
            const again = repeated.map((r) => (overlap === "retitled" ? { ...r, title: { title: `${r.title.title}!`, source: { kind: "model" as const } } } : { ...r }));
            pages.push(page([...again, ...rows.map((r) => row(r.id, at(r.hoursAgo, p), { starred: r.starred }))], fetched[p]));
          });
          for (let n = 1; n <= pages.length; n++) {
            const patches = patchSteps[n % patchSteps.length];
            const step = buildThreadListModel(pages.slice(0, n), patches, NOW, { includeDrafts });
            expect(step).toEqual(buildThreadListModel(copy(pages.slice(0, n)), patches, NOW, { includeDrafts }));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("patchedTitles", () => {
  const fact = (title: string) => ({ fact: { title, source: { kind: "fallback" as const } }, at: 1 });
  it("changes exactly when a title a patch gives changes, whatever the order patches were made in", () => {
    const a = { t1: { server: fact("Garden") }, t2: { stream: fact("Roses") } };
    const b = { t2: { stream: fact("Roses") }, t1: { server: fact("Garden") } };
    expect(patchedTitles(a)).toBe(patchedTitles(b));
    // Not a title: activity, busy, stars, a later instant of the same title.
    expect(patchedTitles({ ...a, t1: { server: { ...fact("Garden"), at: 9 }, busy: true, starred: true, activityAt: "2026-01-01" } })).toBe(patchedTitles(a));
    expect(patchedTitles({ ...a, t2: { stream: fact("Tulips") } })).not.toBe(patchedTitles(a));
    expect(patchedTitles({ ...a, t1: { server: fact("Garden"), edit: { title: "Mine", at: 2 } } })).not.toBe(patchedTitles(a));
    expect(patchedTitles({ ...a, t3: { draft: { createdAt: "2026-01-01" }, stream: fact("New one") } })).not.toBe(patchedTitles(a));
  });

  it("changes when the server's values bring the title the browser had worked out itself (a search asked before could not find it)", () => {
    const local = { t1: { draft: { createdAt: "2026-01-01" }, stream: { ...fact("Glacier facts"), local: true } } };
    const fromServer = { t1: { draft: { createdAt: "2026-01-01" }, stream: fact("Glacier facts") } };
    expect(patchedTitles(fromServer)).not.toBe(patchedTitles(local));
  });
});
