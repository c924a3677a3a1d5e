import { describe, expect, it } from "vitest";
import { withFreshFirstPage } from "./first-page-refresh";
import { buildThreadListModel } from "./thread-list-model";
import type { RowPatches, ThreadPage, ThreadRow } from "./types";

const NOW = new Date(2024, 5, 15, 12, 0, 0).getTime();
const at = (hour: number) => new Date(2024, 5, 15, hour, 0, 0).toISOString();
const row = (id: string, updatedAt: string, title: string, kind: "model" | "user" = "model"): ThreadRow => ({
  id,
  createdAt: updatedAt,
  updatedAt,
  status: "idle",
  starred: false,
  title: { title, source: { kind } },
});
const page = (rows: ThreadRow[], fetchedAt: number, asOf: string, nextOffset: number | null = null): ThreadPage => ({ rows, fetchedAt, nextOffset, asOf });
const titles = (pages: ThreadPage[], patches: RowPatches = {}) =>
  buildThreadListModel(pages, patches, NOW).rows.map((r) => `${r.id}:${r.title}`);

describe("refreshing the first page when the window comes back", () => {
  const first = page([row("a", at(9), "Old A"), row("b", at(8), "Old B")], 100, "t1", 45);
  const second = page([row("b", at(8), "Old B"), row("c", at(7), "Old C")], 110, "t1");
  const cached = { pages: [first, second], pageParams: [{ offset: 0, asOf: "" }, { offset: 45, asOf: "t1" }] };

  it("shows a rename and a new conversation made on another device; later pages stay", () => {
    const fresh = page([row("n", at(11), "New elsewhere"), row("a", at(9), "Renamed elsewhere", "user"), row("b", at(8), "Old B")], 500, "t2", 45);
    const merged = withFreshFirstPage(cached, fresh);
    expect(merged.pageParams).toEqual([{ offset: 0, asOf: "t2" }, { offset: 45, asOf: "t1" }]);
    expect(titles(merged.pages)).toEqual(["n:New elsewhere", "a:Renamed elsewhere", "b:Old B", "c:Old C"]);
  });

  it("keeps this tab's optimistic rename, newer live titles and hidden deletes over the fresh page", () => {
    const fresh = page([row("a", at(9), "Server A"), row("b", at(8), "Server B"), row("c", at(7), "Server C")], 500, "t2");
    const patches: RowPatches = {
      a: { edit: { title: "Typing here", at: 450 } },
      b: { stream: { fact: { title: "Live B", source: { kind: "model" } }, at: 600 } },
      c: { deleted: true },
    };
    expect(titles(withFreshFirstPage(cached, fresh).pages, patches)).toEqual(["a:Typing here", "b:Live B"]);
  });

  it("a live title older than the fresh page gives way to the server's newer fact", () => {
    const fresh = page([row("b", at(8), "Renamed elsewhere", "user")], 500, "t2");
    const patches: RowPatches = { b: { stream: { fact: { title: "Stale live", source: { kind: "model" } }, at: 300 } } };
    expect(titles(withFreshFirstPage(cached, fresh).pages, patches)).toContain("b:Renamed elsewhere");
  });

  it("an empty cache becomes the fresh page", () => {
    const fresh = page([row("a", at(9), "A")], 500, "t2");
    expect(withFreshFirstPage(undefined, fresh)).toEqual({ pages: [fresh], pageParams: [{ offset: 0, asOf: "t2" }] });
  });
});
