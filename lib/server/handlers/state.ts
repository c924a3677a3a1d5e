import type { StateSnapshot } from "@langchain/langgraph";
import { conflict, jsonResponse, notFound, unprocessable } from "../errors";
import { checkpointJson, stateJson, threadConfig } from "../graph";
import { intParam, readBody, type Handler } from "../http";
import { checkpointOf, historySchema, stateCheckpointSchema, stateUpdateSchema, type CheckpointRef } from "../schemas";

/** `select: ["values.title", "next"]` → only those fields (values narrowed to the named keys). */
function applySelect(state: ReturnType<typeof stateJson>, select: string[] | undefined) {
  if (!select?.length) return state;
  const out: Record<string, unknown> = {};
  const valueKeys = select.filter((s) => s.startsWith("values.")).map((s) => s.slice(7));
  for (const field of select) if (!field.startsWith("values.") && field in state) out[field] = state[field as keyof typeof state];
  if (valueKeys.length) {
    const values = state.values as Record<string, unknown>;
    out.values = Object.fromEntries(valueKeys.filter((k) => k in values).map((k) => [k, values[k]]));
  }
  return out;
}

const exists = (snap: StateSnapshot) => snap.createdAt != null || snap.metadata != null;

async function stateAt(ctx: Parameters<Handler>[0], checkpoint: CheckpointRef | undefined, select?: string[]) {
  const id = ctx.params.thread_id;
  ctx.api.registry.get(id);
  const snap = await ctx.api.graph.getState(threadConfig(id, checkpoint));
  if (checkpoint?.checkpoint_id && !exists(snap)) throw notFound(`Checkpoint ${checkpoint.checkpoint_id}`);
  return jsonResponse(applySelect(stateJson(snap), select));
}

const selectParam = (url: URL) => url.searchParams.getAll("select").filter(Boolean);

export const getState: Handler = (ctx) => stateAt(ctx, undefined, selectParam(ctx.url));

export const getStateAtCheckpoint: Handler = (ctx) =>
  stateAt(ctx, { checkpoint_id: ctx.params.checkpoint_id }, selectParam(ctx.url));

export const postStateCheckpoint: Handler = async (ctx) => {
  const body = await readBody(ctx.req, stateCheckpointSchema);
  return stateAt(ctx, body.checkpoint, body.select);
};

/**
 * `values: { title }` is a rename (pinned, allowed while busy). Anything else is a plain state
 * update: a checkpointed write on an idle thread, 409 while a run is going (LangGraph would fork
 * the checkpoint and the run would overwrite the update).
 */
export const updateState: Handler = async ({ api, req, params }) => {
  const body = await readBody(req, stateUpdateSchema);
  const id = params.thread_id;
  api.registry.get(id);
  const values = body.values;
  if (values && !Array.isArray(values) && ("title" in values || "title_source" in values)) {
    const keys = Object.keys(values).filter((k) => k !== "title_source");
    if (!("title" in values) || keys.length !== 1) {
      throw unprocessable('title-invalid: a rename sends only { "title": "..." }; title_source is set by the server');
    }
    return jsonResponse(await api.titles.rename(id, values.title));
  }
  const checkpoint = checkpointOf(body);
  const result = await api.runs.exclusive(
    id,
    async () => {
      let config;
      try {
        config = await api.graph.updateState(threadConfig(id, checkpoint), values ?? null, body.as_node);
      } catch (err) {
        // InvalidUpdateError and friends: the request named a bad node or shape.
        throw unprocessable(err instanceof Error ? err.message : String(err));
      }
      api.registry.mirrorState(id, await api.graph.getState(threadConfig(id)));
      api.registry.setStatus(id, api.registry.hasInterrupts(api.registry.get(id)) ? "interrupted" : "idle", true);
      return { checkpoint: checkpointJson(config) };
    },
    () => {
      throw conflict(`Thread ${id} is busy; state updates are accepted when the run has finished (a title rename is accepted now)`);
    },
  );
  return jsonResponse(result);
};

async function history(ctx: Parameters<Handler>[0], opts: { limit: number; before?: string | CheckpointRef; metadata?: Record<string, unknown>; checkpoint?: CheckpointRef; select?: string[] }) {
  const id = ctx.params.thread_id;
  ctx.api.registry.get(id);
  const before = typeof opts.before === "string" ? { checkpoint_id: opts.before } : opts.before;
  const out = [];
  for await (const snap of ctx.api.graph.getStateHistory(threadConfig(id, opts.checkpoint), {
    limit: opts.limit,
    before: before?.checkpoint_id ? threadConfig(id, before) : undefined,
    filter: opts.metadata,
  })) {
    out.push(applySelect(stateJson(snap), opts.select));
  }
  return jsonResponse(out);
}

export const postHistory: Handler = async (ctx) => {
  const body = await readBody(ctx.req, historySchema);
  return history(ctx, { ...body, limit: body.limit ?? 10 });
};

export const getHistory: Handler = (ctx) =>
  history(ctx, {
    limit: intParam(ctx.url, "limit", 10, 1, 1000),
    before: ctx.url.searchParams.get("before") ?? undefined,
    select: selectParam(ctx.url),
  });

export const regenerateTitle: Handler = async ({ api, params }) => jsonResponse(await api.titles.regenerate(params.thread_id));

/** The title-model audit of a thread, newest first. */
export const listTitleRequests: Handler = async ({ api, params, url }) =>
  jsonResponse(api.registry.titleRequests(params.thread_id, intParam(url, "limit", 50, 1, 500), intParam(url, "offset", 0, 0, 1_000_000)));
