import { describe, expect, it } from "vitest";
import { buildThreadListModel, dateGroupOf, sameRowView } from "./thread-list-model";
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
