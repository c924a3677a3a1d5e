import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { applyTabMessage, recordNewThread, recordServerTitle, recordStreamTitle } from "./live-titles";
import { threadKeys } from "./query-keys";
import { getPatches, patchRow } from "./row-patches";
import { buildThreadListModel } from "./thread-list-model";
import type { ThreadPage } from "./types";
import { computeThreadTitle } from "./use-thread-title";

// The re-read's request is the one thing scripted here: it answers with `registryRows[id]`.
const registryRows = vi.hoisted(() => ({}) as Record<string, ThreadPage["rows"][number]>);
const fetchThreadRowPage = vi.hoisted(() => vi.fn());
vi.mock("./thread-pages", () => ({ fetchThreadRowPage }));
vi.mock("./api-client", async (importOriginal) => ({ ...(await importOriginal<object>()), loadBrowserClient: async () => ({}) }));
fetchThreadRowPage.mockImplementation(async (_client: unknown, id: string): Promise<ThreadPage> => ({
  rows: registryRows[id] ? [registryRows[id]] : [],
  fetchedAt: Date.now(),
  nextOffset: null,
  asOf: "",
}));

function clientWithList(rows: ThreadPage["rows"], fetchedAt = 1): QueryClient {
  const qc = new QueryClient();
  const data: InfiniteData<ThreadPage> = { pages: [{ rows, fetchedAt, nextOffset: null, asOf: "x" }], pageParams: [{ offset: 0, asOf: "x" }] };
  qc.setQueryData(threadKeys.list(""), data);
  return qc;
}
const rowOf = (id: string, title: string | null, kind: "fallback" | "model" | "user" = "fallback") => ({
  id,
  createdAt: "2024-06-15T10:00:00.000Z",
  activityAt: "2024-06-15T10:00:00.000Z",
  status: "idle" as const,
  starred: false,
  title: { title, source: title ? { kind } : null },
});

/** The row (list model) and the header (computeThreadTitle) must always agree. */
function rowAndHeader(qc: QueryClient, id: string) {
  const pages = qc.getQueryData<InfiniteData<ThreadPage>>(threadKeys.list(""))?.pages ?? [];
  const row = buildThreadListModel(pages, getPatches(qc), Date.now()).byId.get(id);
  return { row: row?.title ?? null, header: computeThreadTitle(qc, id).title };
}

describe("live titles in the query cache", () => {
  it("patches one row from a values event; row and header agree", () => {
    const qc = clientWithList([rowOf("a", "hello wor..."), rowOf("b", "other")]);
    const before = getPatches(qc);
    recordStreamTitle(qc, "a", { title: "Greeting", title_source: { kind: "model", model: "m" } }, { share: false });
    expect(rowAndHeader(qc, "a")).toEqual({ row: "Greeting", header: "Greeting" });
    expect(rowAndHeader(qc, "b")).toEqual({ row: "other", header: "other" });
    expect(getPatches(qc)).not.toBe(before);
    expect(getPatches(qc).b).toBeUndefined();
  });

  it("ignores values without a title and repeats of the same fact", () => {
    const qc = clientWithList([]);
    recordStreamTitle(qc, "a", { messages: [], title: null }, { share: false });
    expect(getPatches(qc).a).toBeUndefined();
    recordStreamTitle(qc, "a", { title: "T", title_source: { kind: "fallback" } }, { at: 5, share: false });
    recordStreamTitle(qc, "a", { title: "T", title_source: { kind: "fallback" } }, { at: 9, share: false });
    expect(getPatches(qc).a.stream?.at).toBe(5);
  });

  it("keeps the instant title until the server confirms it, with no empty flash", () => {
    const qc = clientWithList([]);
    recordNewThread(qc, "n", { instantTitle: "hi there", busy: true, share: false });
    expect(computeThreadTitle(qc, "n")).toMatchObject({ title: "hi there", pending: true });
    recordStreamTitle(qc, "n", { title: null }, { share: false }); // first values event: no title yet
    expect(computeThreadTitle(qc, "n")).toMatchObject({ title: "hi there", pending: true });
    recordStreamTitle(qc, "n", { title: "hi there", title_source: { kind: "fallback" } }, { share: false });
    expect(computeThreadTitle(qc, "n")).toMatchObject({ title: "hi there", pending: false });
  });

  it("a rename response pins the title against later automatic events", () => {
    const qc = clientWithList([rowOf("a", "hello")]);
    recordServerTitle(qc, "a", { title: "Mine", source: { kind: "user" } }, { share: false });
    recordStreamTitle(qc, "a", { title: "Model name", title_source: { kind: "model" } }, { share: false });
    expect(rowAndHeader(qc, "a")).toEqual({ row: "Mine", header: "Mine" });
  });

  it("a server fact read before the one held does not replace it (a re-read answered after a rename's answer)", () => {
    const qc = clientWithList([rowOf("a", "hello")]);
    recordServerTitle(qc, "a", { title: "Mine", source: { kind: "user" } }, { share: false, at: 200 });
    recordServerTitle(qc, "a", { title: "Model name", source: { kind: "model" } }, { share: false, at: 150 });
    expect(rowAndHeader(qc, "a")).toEqual({ row: "Mine", header: "Mine" });
    recordServerTitle(qc, "a", { title: "Newer name", source: { kind: "model" } }, { share: false, at: 250 });
    expect(rowAndHeader(qc, "a")).toEqual({ row: "Newer name", header: "Newer name" });
  });

  it("an optimistic edit shows in row and header alike", () => {
    const qc = clientWithList([rowOf("a", "hello")]);
    patchRow(qc, "a", (p) => ({ ...p, edit: { title: "Typed", at: Date.now() } }));
    expect(rowAndHeader(qc, "a")).toEqual({ row: "Typed", header: "Typed" });
  });

  it("uses the server-rendered seed only when the list lacks the thread", () => {
    const qc = clientWithList([rowOf("a", "Listed", "model")]);
    expect(computeThreadTitle(qc, "old", { title: "Seeded", source: { kind: "user" } }).title).toBe("Seeded");
    expect(computeThreadTitle(qc, "a", { title: "Seeded", source: { kind: "user" } }).title).toBe("Listed");
  });

  it("applies other tabs' messages", () => {
    const qc = clientWithList([rowOf("a", "hello")]);
    applyTabMessage(qc, { type: "server-title", threadId: "a", fact: { title: "Renamed", source: { kind: "user" } }, at: Date.now() });
    expect(rowAndHeader(qc, "a").row).toBe("Renamed");
    applyTabMessage(qc, { type: "created", threadId: "n", createdAt: new Date().toISOString() });
    applyTabMessage(qc, { type: "stream-title", threadId: "n", fact: { title: "New one", source: { kind: "fallback" } }, at: Date.now() });
    expect(rowAndHeader(qc, "n").row).toBe("New one");
    applyTabMessage(qc, { type: "deleted", threadId: "a" });
    expect(rowAndHeader(qc, "a").row).toBeNull();
  });
});

describe("the header's lookup", () => {
  const page = (rows: ThreadPage["rows"], fetchedAt = 1): ThreadPage => ({ rows, fetchedAt, nextOffset: null, asOf: "x" });

  it("sees a starred row that no list page holds (a pin there beats the seed)", () => {
    const qc = clientWithList([rowOf("a", "Listed")]);
    qc.setQueryData(threadKeys.starred(), page([{ ...rowOf("s", "Pinned while answering", "user"), starred: true }]));
    const header = computeThreadTitle(qc, "s", { title: "Old values title", source: { kind: "fallback" } });
    expect(header).toMatchObject({ title: "Pinned while answering", source: { kind: "user" } });
  });

  it("sees the open thread's own registry row beyond the loaded pages", () => {
    const qc = clientWithList([rowOf("a", "Listed")]);
    qc.setQueryData(threadKeys.one("far"), page([rowOf("far", "Far away", "model")]));
    expect(computeThreadTitle(qc, "far", { title: "Old values title", source: { kind: "fallback" } }).title).toBe("Far away");
  });

  it("asks for a re-read when a run's values carry a user title other than the title shown, and shows neither change meanwhile", () => {
    const qc = clientWithList([rowOf("a", "Renamed elsewhere", "user"), rowOf("b", "First words")]);
    expect(recordStreamTitle(qc, "a", { title: "Older pin", title_source: { kind: "user" } }, { share: false })).toEqual({ reread: true });
    expect(rowAndHeader(qc, "a")).toEqual({ row: "Renamed elsewhere", header: "Renamed elsewhere" });
    // The same user title, an automatic title over a pin: no re-read.
    expect(recordStreamTitle(qc, "a", { title: "Renamed elsewhere", title_source: { kind: "user" } }, { share: false })).toEqual({ reread: false });
    expect(recordStreamTitle(qc, "a", { title: "Model's", title_source: { kind: "model", model: "m" } }, { share: false })).toEqual({ reread: false });
    // A pin over an automatic title: a rename from elsewhere, or an older rename a branch brought
    // back after the thread left it (a regenerate, an Undo); only the server knows which.
    expect(recordStreamTitle(qc, "b", { title: "A pin", title_source: { kind: "user" } }, { share: false })).toEqual({ reread: true });
    expect(rowAndHeader(qc, "b")).toEqual({ row: "First words", header: "First words" });
    // The re-read's answer (a server fact read after the stream's) settles it.
    recordServerTitle(qc, "a", { title: "Newest pin", source: { kind: "user" } }, { share: false });
    expect(rowAndHeader(qc, "a")).toEqual({ row: "Newest pin", header: "Newest pin" });
  });

  it("reads the thread's row once for such a title, from this tab's stream or another tab's message, and shows what the registry holds", async () => {
    fetchThreadRowPage.mockClear();
    registryRows.a = rowOf("a", "Newest pin", "user");
    const qc = clientWithList([rowOf("a", "Renamed elsewhere", "user")]);
    recordStreamTitle(qc, "a", { title: "Older pin", title_source: { kind: "user" } }, { share: false });
    await vi.waitFor(() => expect(rowAndHeader(qc, "a")).toEqual({ row: "Newest pin", header: "Newest pin" }));
    expect(fetchThreadRowPage.mock.calls.map((c) => c[1] as string)).toEqual(["a"]);

    registryRows.b = rowOf("b", "Pinned here last", "user");
    const other = clientWithList([rowOf("b", "Pinned here", "user")]);
    applyTabMessage(other, { type: "stream-title", threadId: "b", fact: { title: "Pinned there", source: { kind: "user" } }, at: Date.now() });
    await vi.waitFor(() => expect(rowAndHeader(other, "b")).toEqual({ row: "Pinned here last", header: "Pinned here last" }));
    // An automatic title in another tab's message asks for nothing.
    applyTabMessage(other, { type: "stream-title", threadId: "b", fact: { title: "Auto", source: { kind: "fallback" } }, at: Date.now() });
    await new Promise((resolve) => setTimeout(resolve, 20)); // a re-read would have asked by now
    expect(fetchThreadRowPage.mock.calls.map((c) => c[1] as string)).toEqual(["a", "b"]);
  });
});
