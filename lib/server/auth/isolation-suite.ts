import { expect } from "vitest";
import type { Client } from "@langchain/langgraph-sdk";

/**
 * The per-user isolation suite, run against the embedded API (isolation.test.ts) and against
 * `langgraph dev` serving langgraph.json (isolation-langgraph-dev.test.ts) with the same rules.
 * User B tries every route on user A's thread; each attempt's outcome is recorded by name, so a
 * leak shows up as one named line in the diff.
 */
export interface IsolationTarget {
  a: Client;
  b: Client;
  /** A raw request to the API root with this key (null = no key at all). */
  raw(path: string, key: string | null, init?: RequestInit): Promise<Response>;
  keyB: string;
  /** How this server renames (the embedded API pins `{ title }`; langgraph dev takes the source too). */
  rename(client: Client, threadId: string, title: string): Promise<unknown>;
  /** Our own routes (title/*): only the embedded API has them. */
  threadlineRoutes: boolean;
  /**
   * `$title_search`: over current and former titles, with counts (the embedded API); over current
   * titles, searches only (our forwarder in front of a LangGraph server); or not at all (such a server itself).
   */
  titleSearch: "all-titles" | "current-titles" | "none";
}

const TEXT = "Plan a weekend in Porto with good food";
const input = (text: string) => ({ messages: [{ type: "human", content: text }] });

/** Words only A's thread holds (its first message, former and current titles). */
const A_WORDS = /Porto|Lisbon/;

/** An attempt's outcome: the HTTP status, "200:empty" for an empty list, "200:LEAK" when an answer holds A's words. */
async function outcome(attempt: () => Promise<unknown>): Promise<string> {
  try {
    const out = await attempt();
    if (A_WORDS.test(JSON.stringify(out) ?? "")) return "200:LEAK";
    if (Array.isArray(out) && out.length === 0) return "200:empty";
    return "200";
  } catch (err) {
    const status = (err as { status?: number }).status;
    return status ? String(status) : `error:${String(err).slice(0, 80)}`;
  }
}

async function streamOutcome(stream: () => AsyncIterable<{ event: string; data: unknown }>): Promise<string> {
  return outcome(async () => {
    for await (const part of stream()) {
      if (part.event === "error") {
        const message = JSON.stringify(part.data);
        throw { status: /404/.test(message) ? 404 : undefined, toString: () => message };
      }
    }
  });
}

export async function seedThreadOfA(t: IsolationTarget) {
  const thread = await t.a.threads.create({ metadata: { topic: "porto-trip" } });
  const id = thread.thread_id;
  const run = await t.a.runs.create(id, "agent", { input: input(TEXT) });
  await t.a.runs.join(id, run.run_id);
  // The fallback title (with "Porto") becomes a FORMER title once A renames.
  await t.rename(t.a, id, "Lisbon notes");
  const state = await t.a.threads.getState(id);
  return { id, runId: run.run_id, checkpointId: state.checkpoint.checkpoint_id as string };
}

export async function snapshotOf(client: Client, id: string) {
  const thread = await client.threads.get(id);
  const state = await client.threads.getState(id);
  const history = await client.threads.getHistory(id, { limit: 100 });
  const runs = await client.runs.list(id);
  return {
    metadata: thread.metadata,
    values: state.values,
    checkpoint: state.checkpoint.checkpoint_id,
    history: history.length,
    runs: runs.map((r) => [r.run_id, r.status]),
  };
}

/** The SDK's checkpoint object: passing one (not a string id) makes getState POST /state/checkpoint. */
const checkpointAt = (threadId: string, checkpointId: string) => ({ thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId, checkpoint_map: null });

/** Every route B might use on A's thread; the expected outcome is 404 unless a server says otherwise. */
export async function attemptsOfB(t: IsolationTarget, a: { id: string; runId: string; checkpointId: string }) {
  const { b } = t;
  const { id, runId, checkpointId } = a;
  const rawStatus = async (path: string, init?: RequestInit) => String((await t.raw(path, t.keyB, init)).status);
  const json = (method: string, body: unknown): RequestInit => ({ method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const out: Record<string, string> = {
    get: await outcome(() => b.threads.get(id)),
    createSameId: await outcome(() => b.threads.create({ threadId: id, ifExists: "do_nothing" })),
    createSameIdRaise: await outcome(() => b.threads.create({ threadId: id, ifExists: "raise" })),
    update: await outcome(() => b.threads.update(id, { metadata: { topic: "stolen" } })),
    copy: await outcome(() => b.threads.copy(id)),
    state: await outcome(() => b.threads.getState(id)),
    stateAtCheckpoint: await outcome(() => b.threads.getState(id, checkpointId)),
    // A checkpoint object (not a string id) makes the SDK POST /state/checkpoint.
    stateAtCheckpointPost: await outcome(() => b.threads.getState(id, checkpointAt(id, checkpointId))),
    rename: await outcome(() => t.rename(b, id, "Mine now")),
    history: await outcome(() => b.threads.getHistory(id)),
    historyGet: await rawStatus(`/threads/${id}/history`),
    runsCreate: await outcome(() => b.runs.create(id, "agent", { input: input("hi") })),
    runsCreateIfNotExists: await outcome(() => b.runs.create(id, "agent", { input: input("hi"), ifNotExists: "create" })),
    runsStream: await streamOutcome(() => b.runs.stream(id, "agent", { input: input("hi") })),
    runsWait: await outcome(() => b.runs.wait(id, "agent", { input: input("hi") })),
    runsList: await outcome(() => b.runs.list(id)),
    runsGet: await outcome(() => b.runs.get(id, runId)),
    runsJoin: await outcome(() => b.runs.join(id, runId)),
    runsJoinStream: await streamOutcome(() => b.runs.joinStream(id, runId)),
    runsCancel: await outcome(() => b.runs.cancel(id, runId)),
  };
  // A's run id under B's own thread: run ids are looked up within the thread the caller may see.
  const own = await b.threads.create();
  out.runGetViaOwnThread = await outcome(() => b.runs.get(own.thread_id, runId));
  out.runJoinViaOwnThread = await outcome(() => b.runs.join(own.thread_id, runId));
  out.runCancelViaOwnThread = await outcome(() => b.runs.cancel(own.thread_id, runId));
  // A's checkpoint id under B's own thread: checkpoints are looked up within that thread too.
  out.checkpointViaOwnThread = await outcome(() => b.threads.getState(own.thread_id, checkpointId));
  out.checkpointPostViaOwnThread = await outcome(() => b.threads.getState(own.thread_id, checkpointAt(own.thread_id, checkpointId)));
  await b.threads.delete(own.thread_id);
  if (t.threadlineRoutes) {
    out.titleRegenerate = await rawStatus(`/threads/${id}/title/regenerate`, json("POST", {}));
    out.titleRequests = await rawStatus(`/threads/${id}/title/requests`);
    out.titleRestore = await rawStatus(`/threads/${id}/title/restore`, json("POST", { title: "Mine now", title_source: { kind: "user" } }));
  }
  // Last, so a delete that wrongly succeeded cannot hide a leak in the attempts above.
  out.runsDelete = await outcome(() => b.runs.delete(id, runId));
  out.delete = await outcome(() => b.threads.delete(id));
  return out;
}

/** B's searches never return A's thread; A's own searches do (so the check can fail). */
export async function expectSearchesIsolated(t: IsolationTarget, aId: string) {
  const mine = await t.b.threads.create({ metadata: { topic: "porto-trip" } });
  const ids = (rows: { thread_id: string }[]) => rows.map((r) => r.thread_id);
  expect(ids(await t.b.threads.search({ limit: 100 }))).toEqual([mine.thread_id]);
  expect(ids(await t.b.threads.search({ metadata: { topic: "porto-trip" }, limit: 100 }))).toEqual([mine.thread_id]);
  expect(ids(await t.a.threads.search({ metadata: { topic: "porto-trip" }, limit: 100 }))).toContain(aId);
  expect(await t.b.threads.count({ metadata: { topic: "porto-trip" } })).toBe(1);
  if (t.titleSearch === "current-titles") {
    // A finds its thread by its current title; B, searching the same words, does not.
    expect(ids(await t.a.threads.search({ metadata: { $title_search: "lisb" }, limit: 100 }))).toContain(aId);
    expect(ids(await t.b.threads.search({ metadata: { $title_search: "lisb" }, limit: 100 }))).toEqual([]);
  }
  if (t.titleSearch === "all-titles") {
    // "Porto" is only in A's former (fallback) title; A finds it, B must not.
    expect(ids(await t.a.threads.search({ metadata: { $title_search: "Porto" }, limit: 100 }))).toContain(aId);
    expect(ids(await t.b.threads.search({ metadata: { $title_search: "Porto" }, limit: 100 }))).toEqual([]);
    expect(ids(await t.b.threads.search({ metadata: { $title_search: "Lisbon" }, limit: 100 }))).toEqual([]);
    // The same through /threads/count.
    expect(await t.a.threads.count({ metadata: { $title_search: "Porto" } })).toBe(1);
    expect(await t.b.threads.count({ metadata: { $title_search: "Porto" } })).toBe(0);
    expect(await t.b.threads.count({ metadata: { $title_search: "Lisbon" } })).toBe(0);
  }
  await t.b.threads.delete(mine.thread_id);
}
