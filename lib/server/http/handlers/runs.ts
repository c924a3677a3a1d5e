import { jsonResponse, notFound, unprocessable } from "../errors";
import { threadConfig } from "../../graph";
import { answeredDurably, intParam, parseClientInput, readBody, type Handler, type RouteContext } from "../http";
import type { RunRow } from "../../store/queries";
import { checkRunRequest } from "../../runs/run-rules";
import { runPath, runStreamResponse } from "../../runs/run-stream";
import { cancelQuerySchema, isStreamMode, RUN_STATUSES, runCreateSchema } from "../schemas";
import { toJsonValue } from "../../store/serde";
import { parseLastEventId } from "../sse";
import type { Api } from "../../api";

function runJson(row: RunRow) {
  const parse = (s: string) => {
    try {
      return JSON.parse(s);
    } catch {
      return {};
    }
  };
  return {
    run_id: row.run_id,
    thread_id: row.thread_id,
    assistant_id: row.assistant_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status: row.status,
    metadata: parse(row.metadata),
    kwargs: parse(row.kwargs),
    multitask_strategy: row.multitask_strategy,
  };
}

async function getRunRow(api: Api, threadId: string, runId: string): Promise<RunRow> {
  await api.registry.head(threadId);
  const row = await api.q.getRun(threadId, runId);
  if (!row) throw notFound(`Run ${runId}`);
  return row;
}

/**
 * The thread's values after a run, or the run's error (a failure or a timeout) in the shape
 * `runs.wait` raises from. A run no longer in memory (ended long ago, or before a restart) is
 * judged by its row.
 */
async function finalValues(api: Api, threadId: string, runId: string) {
  const live = api.runs.get(runId);
  const failed = (status: string | undefined) => status === "error" || status === "timeout";
  if (live && failed(live.status) && live.error) return { __error__: live.error };
  if (!live) {
    const row = await api.q.getRun(threadId, runId);
    if (row && failed(row.status)) return { __error__: { error: row.status === "timeout" ? "TimeoutError" : "Error", message: row.error ?? "The run failed" } };
  }
  const snap = await api.graph.getState(threadConfig(threadId));
  return toJsonValue(snap.values) ?? {};
}

/**
 * The run body, with the metadata the auth rules stamped, and what a thread made by the run
 * (`if_not_exists: "create"`) is given beside the graph's keys: the filtered keys (the owner), so
 * its creator can see it. The run manager makes that thread (checking it is the caller's) just
 * before the run, once the request has passed every check that can be made without it.
 */
function readRunBody(ctx: RouteContext) {
  const body = readBody(ctx, runCreateSchema);
  checkRunRequest(ctx.params.thread_id, body);
  const { filters, value } = ctx.authz;
  if (!filters) return { body, newThread: undefined };
  const stamped = value.metadata ?? {};
  const owned = Object.fromEntries(Object.keys(filters).filter((k) => k in stamped).map((k) => [k, stamped[k]]));
  return { body: { ...body, metadata: stamped }, newThread: owned };
}

export const streamRun: Handler = async (ctx) => {
  const { api, req, params } = ctx;
  const { body, newThread } = readRunBody(ctx);
  const run = await api.runs.create(params.thread_id, body, newThread);
  // Default "continue": a run keeps going when the browser leaves, so its title still lands.
  const cancelOnLeave = body.on_disconnect === "cancel";
  // The run's row is on disk (runs.create): the stream starts without waiting for the run's own writes.
  return answeredDurably(
    runStreamResponse(run, {
      afterId: -1,
      signal: req.signal,
      resumable: body.stream_resumable === true,
      onDisconnect: cancelOnLeave ? () => api.runs.requestCancel(run, "interrupt") : undefined,
    }),
  );
};

export const createRun: Handler = async (ctx) => {
  const { api, params } = ctx;
  const { body, newThread } = readRunBody(ctx);
  const run = await api.runs.create(params.thread_id, body, newThread);
  const path = runPath(run.threadId, run.runId);
  return answeredDurably(jsonResponse(runJson(await getRunRow(api, run.threadId, run.runId)), 200, { "Content-Location": path }));
};

export const waitRun: Handler = async (ctx) => {
  const { api, req, params } = ctx;
  const { body, newThread } = readRunBody(ctx);
  const run = await api.runs.create(params.thread_id, body, newThread);
  if (body.on_disconnect === "cancel") req.signal.addEventListener("abort", () => api.runs.requestCancel(run, "interrupt"), { once: true });
  await run.done;
  return jsonResponse(await finalValues(api, run.threadId, run.runId), 200, { "Content-Location": runPath(run.threadId, run.runId) });
};

export const listRuns: Handler = async ({ api, url, params }) => {
  await api.registry.head(params.thread_id);
  const status = url.searchParams.get("status");
  if (status && !(RUN_STATUSES as readonly string[]).includes(status)) throw unprocessable(`status must be one of ${RUN_STATUSES.join(", ")}`);
  const rows = await api.q.listRuns(params.thread_id, status || null, intParam(url, "limit", 10, 1, 1000), intParam(url, "offset", 0, 0, 1_000_000));
  return jsonResponse(rows.map(runJson));
};

export const getRun: Handler = async ({ api, params }) => jsonResponse(runJson(await getRunRow(api, params.thread_id, params.run_id)));

export const deleteRun: Handler = async ({ api, params }) => {
  await getRunRow(api, params.thread_id, params.run_id);
  await api.runs.cancel(params.thread_id, params.run_id, "interrupt", true);
  await api.q.deleteRun(params.run_id);
  return new Response(null, { status: 204 });
};

/**
 * Join a run's stream; replays what the client has not seen (Last-Event-ID), then follows it.
 * A run whose events are gone (pruned, or from before a restart) is a 404: an empty 200 stream
 * would read as "finished with no output".
 */
export const joinRunStream: Handler = async ({ api, req, url, params }) => {
  await getRunRow(api, params.thread_id, params.run_id);
  const run = api.runs.get(params.run_id);
  if (!run || run.threadId !== params.thread_id) {
    throw notFound(`Stream of run ${params.run_id} (its events are no longer kept; read the thread's state instead)`);
  }
  const modes = url.searchParams.getAll("stream_mode");
  const unknown = modes.find((m) => !isStreamMode(m));
  if (unknown !== undefined) throw unprocessable(`stream_mode ${JSON.stringify(unknown)} is not a stream mode`);
  const cancelOnLeave = ["1", "true"].includes(url.searchParams.get("cancel_on_disconnect") ?? "");
  return runStreamResponse(run, {
    afterId: parseLastEventId(req.headers.get("last-event-id")),
    modes: modes.length ? modes : undefined,
    signal: req.signal,
    resumable: true,
    onDisconnect: cancelOnLeave ? () => api.runs.requestCancel(run, "interrupt") : undefined,
  });
};

export const joinRun: Handler = async ({ api, params }) => {
  await getRunRow(api, params.thread_id, params.run_id);
  await api.runs.get(params.run_id)?.done;
  return jsonResponse(await finalValues(api, params.thread_id, params.run_id));
};

export const cancelRun: Handler = async ({ api, url, params }) => {
  const query = parseClientInput(cancelQuerySchema, Object.fromEntries(url.searchParams));
  await getRunRow(api, params.thread_id, params.run_id);
  const wait = query.wait === "1" || query.wait === "true";
  await api.runs.cancel(params.thread_id, params.run_id, query.action ?? "interrupt", wait);
  return new Response(null, { status: wait ? 204 : 202 });
};
