import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, testDialect, type Harness } from "../test-harness";
import type { Queries } from "./queries";

/**
 * The activity log's prune (queries.ts): each thread keeps every row since the cutoff and its
 * latest row before it, so "order as of T" stays right within the retention window; and a prune
 * after the first visits only the threads active since the last one, never every thread.
 */
let h: Harness;
let q: Queries;
afterAll(async () => h?.close(), 60_000);
beforeAll(async () => {
  h = createHarness();
  await h.api.ready;
  q = h.api.q;
}, 60_000);

const T0 = Date.parse("2026-06-10T12:00:00.000Z");
const at = (hoursBefore: number) => new Date(T0 - hoursBefore * 3_600_000).toISOString();
const rows = async () => {
  const { rows: all } = await sql<{ thread_id: string; at: string }>`SELECT thread_id, at FROM tl_thread_activity WHERE thread_id LIKE 'prune-%' ORDER BY thread_id, at`.execute(q.store.exec());
  const by: Record<string, string[]> = {};
  for (const r of all) (by[r.thread_id] ??= []).push(r.at);
  return by;
};
/** A thread whose activity rows are at these instants (hours before T0): created at the first, then status changes. */
async function thread(id: string, ...hoursBefore: number[]) {
  await q.insertThread({ thread_id: id, at: at(hoursBefore[0]), metadata: "{}" });
  for (const h of hoursBefore.slice(1)) await q.setStatus(id, "idle", at(h));
}

describe("the activity prune", () => {
  it("keeps each thread's rows since the cutoff and its latest before it, prune after prune", async () => {
    await thread("prune-old", 72, 60, 48);
    await thread("prune-mixed", 72, 6);
    await thread("prune-recent", 1);
    await thread("prune-lone", 120);

    await q.pruneActivity(at(24));
    expect(await rows()).toEqual({
      "prune-old": [at(48)],
      "prune-mixed": [at(72), at(6)],
      "prune-recent": [at(1)],
      "prune-lone": [at(120)],
    });

    // Twelve hours on: "old" was active in between, "mixed" and "lone" were not.
    await q.setStatus("prune-old", "idle", at(20));
    await q.setStatus("prune-old", "idle", at(14));
    await q.setStatus("prune-recent", "idle", at(0.5));
    await q.pruneActivity(at(12));
    expect(await rows()).toEqual({
      "prune-old": [at(14)],
      "prune-mixed": [at(72), at(6)],
      "prune-recent": [at(1), at(0.5)],
      "prune-lone": [at(120)],
    });

    // An as-of page within the window still orders by each thread's activity at that instant.
    const asOf = async (hoursBefore: number) =>
      Object.fromEntries(
        (
          await sql<{ thread_id: string; act: string | null }>`SELECT thread_id, (SELECT MAX(a.at) FROM tl_thread_activity a WHERE a.thread_id = t.thread_id AND a.at <= ${at(hoursBefore)}) AS act FROM tl_threads t WHERE thread_id LIKE 'prune-%'`.execute(q.store.exec())
        ).rows.map((r) => [r.thread_id, r.act]),
      );
    expect(await asOf(10)).toEqual({ "prune-old": at(14), "prune-mixed": at(72), "prune-lone": at(120), "prune-recent": null });
  });

  it("runs on its own every 500 activity writes", async () => {
    // Active since the last prune (T0 - 12 h), then 500 writes two days on: the 500th prunes at T0 + 24 h.
    await thread("prune-auto", 6, 0, -10);
    for (let i = 0; i < 500; i++) await q.insertThread({ thread_id: `fill-${i}`, at: at(-48), metadata: "{}" });
    expect((await rows())["prune-auto"]).toEqual([at(-10)]);
  });

  it("moves its watermark only when its transaction commits", async () => {
    // Active after the last prune (T0 + 24 h), then quiet: rows at T0 + 30 h and T0 + 40 h.
    await thread("prune-rolled", -30, -40);
    // A prune at T0 + 45 h rolls back with its transaction: both rows stay...
    await expect(
      q.transaction(async () => {
        await q.pruneActivity(at(-45));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await rows())["prune-rolled"]).toEqual([at(-30), at(-40)]);
    // ...so the next prune still visits the thread (no row of it since T0 + 45 h) and drops the older one.
    await q.pruneActivity(at(-60));
    expect((await rows())["prune-rolled"]).toEqual([at(-40)]);
  });

  it.runIf(testDialect === "sqlite")("after the first, looks up the threads active since the last prune instead of walking every thread (SQLite plan)", async () => {
    const plan = (await q.explainActivityPrune(at(12), at(24))) as { detail: string }[];
    const details = plan.map((r) => r.detail);
    // The rows to delete are found thread by thread, for the threads with a row between the two cutoffs...
    expect(details.some((d) => /^SEARCH a USING PRIMARY KEY \(thread_id=\?/.test(d))).toBe(true);
    expect(details.some((d) => /tl_thread_activity_at \(at>\? AND at<\?\)/.test(d))).toBe(true);
    // ...never by every row before the cutoff (one a thread, at least, once the log is a day old) nor by a scan.
    expect(details.filter((d) => /^SCAN |^SEARCH a USING (COVERING )?INDEX tl_thread_activity_at \(at<\?\)/.test(d))).toEqual([]);
  });

  it.runIf(testDialect === "postgres")("after the first, looks up the threads active since the last prune instead of walking every thread (Postgres plan)", async () => {
    // Enough history that walking it would cost: 3,000 threads with three old rows each, a few active since.
    await q.transaction(async () => {
      for (let i = 0; i < 3000; i++) await thread(`plan-${String(i).padStart(5, "0")}`, 300, 200, 100);
      for (let i = 0; i < 5; i++) await q.setStatus(`plan-${String(i).padStart(5, "0")}`, "idle", at(18));
    });
    await q.analyze();
    const json = (await q.explainActivityPrune(at(12), at(24)))[0] as Record<string, unknown>;
    const top = (typeof json["QUERY PLAN"] === "string" ? JSON.parse(json["QUERY PLAN"]) : json["QUERY PLAN"]) as { Plan: PgNode }[];
    const nodes = flat(top[0].Plan);
    /** The reads (not the delete itself) of the log under this alias. */
    const readsOf = (alias: string) => nodes.filter((n) => n["Relation Name"] === "tl_thread_activity" && n.Alias === alias && /Scan/.test(n["Node Type"]));
    const shown = JSON.stringify(top[0].Plan);
    // The threads active between the two cutoffs come from the at index, by that range...
    const indexed = nodes.filter((n) => n["Index Name"] === "tl_thread_activity_at");
    expect(indexed.length, shown).toBeGreaterThan(0);
    expect(indexed.every((n) => /at >= .*at </.test(n["Index Cond"] ?? "")), shown).toBe(true);
    // ...and the rows to delete are looked up thread by thread under the primary key...
    expect(readsOf("a").map((n) => `${n["Node Type"]} ${n["Index Name"]} ${n["Index Cond"]}`), shown).toEqual([expect.stringMatching(/^Index Scan tl_thread_activity_pkey \(\(thread_id = w\.thread_id\)/)]);
    // ...never by reading the whole log.
    expect(nodes.filter((n) => n["Node Type"] === "Seq Scan"), shown).toEqual([]);
  });
});

interface PgNode {
  "Node Type": string;
  "Relation Name"?: string;
  Alias?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: PgNode[];
}
const flat = (n: PgNode): PgNode[] => [n, ...(n.Plans ?? []).flatMap(flat)];
