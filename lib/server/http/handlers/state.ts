import type { StateSnapshot } from "@langchain/langgraph";
import type { z } from "zod";
import type { Api } from "../../api";
import { conflict, jsonResponse, notFound, unprocessable } from "../errors";
import { branchTitleToCarry, checkpointExists, checkpointJson, stateJson, threadConfig, writeTitleToCheckpoint } from "../../graph";
import { intParam, readBody, type Handler } from "../http";
import { checkClientMessages, checkClientStateKeys } from "../../runs/run-rules";
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
  await ctx.api.registry.head(id);
  const snap = await ctx.api.graph.getState(threadConfig(id, checkpoint));
  if (checkpoint?.checkpoint_id && !exists(snap)) throw notFound(`Checkpoint ${checkpoint.checkpoint_id}`);
  return jsonResponse(applySelect(stateJson(snap), select));
}

const selectParam = (url: URL) => url.searchParams.getAll("select").filter(Boolean);

export const getState: Handler = (ctx) => stateAt(ctx, undefined, selectParam(ctx.url));

export const getStateAtCheckpoint: Handler = (ctx) =>
  stateAt(ctx, { checkpoint_id: ctx.params.checkpoint_id }, selectParam(ctx.url));

export const postStateCheckpoint: Handler = async (ctx) => {
  const body = readBody(ctx, stateCheckpointSchema);
  return stateAt(ctx, body.checkpoint, body.select);
};

async function plainUpdate(api: Api, id: string, body: z.infer<typeof stateUpdateSchema>) {
  const values = body.values ?? null;
  if (values) {
    checkClientStateKeys(Object.keys(values), "values");
    if (values.messages !== undefined && !Array.isArray(values.messages)) {
      throw unprocessable("values.messages must be a list of messages");
    }
    checkClientMessages(values.messages, "values.messages");
  }
  if (body.as_node !== undefined && !Object.hasOwn(api.graph.nodes, body.as_node)) {
    throw unprocessable(`as_node must be one of ${Object.keys(api.graph.nodes).join(", ")}`);
  }
  const checkpoint = checkpointOf(body);
  if (!(await checkpointExists(api.checkpointer, id, checkpoint))) throw notFound(`Checkpoint ${checkpoint!.checkpoint_id}`);
  return api.runs.exclusive(
    id,
    async () => {
      let config;
      try {
        config = await api.graph.updateState(threadConfig(id, checkpoint), values, body.as_node);
      } catch (err) {
        // Only the graph's own "this update does not fit" is the client's mistake; its text stays in the log.
        if (err instanceof Error && err.name === "InvalidUpdateError") {
          console.warn("[api] state update refused by the graph", err.message);
          throw unprocessable("The update does not fit the thread's state");
        }
        throw err;
      }
      let head = await api.graph.getState(threadConfig(id));
      // An update from an earlier checkpoint branches the thread; its title comes along.
      const carry = checkpoint?.checkpoint_id ? branchTitleToCarry(api.registry.titleOf(await api.registry.head(id)), head) : null;
      if (carry) {
        config = await writeTitleToCheckpoint(api.graph, id, carry.title, carry.source);
        head = await api.graph.getState(threadConfig(id));
      }
      await api.registry.mirrorState(id, head);
      await api.registry.setStatus(id, api.registry.hasInterrupts(await api.registry.head(id)) ? "interrupted" : "idle", true);
      return { checkpoint: checkpointJson(config) };
    },
    () => {
      throw conflict(`Thread ${id} is busy; state updates are accepted when the run has finished (a title rename is accepted now)`);
    },
  );
}

/**
 * `values: { title }` is a rename (pinned, allowed while busy): the only way a client sets a
 * title. Anything else is a plain state update of the keys a client may write: a checkpointed
 * write on an idle thread, 409 while a run is going (LangGraph would fork the checkpoint and the
 * run would overwrite the update).
 */
export const updateState: Handler = async (ctx) => {
  const { api, params } = ctx;
  const body = readBody(ctx, stateUpdateSchema);
  const id = params.thread_id;
  await api.registry.head(id);
  const values = body.values;
  if (values && "title" in values) {
    if (Object.keys(values).length !== 1) {
      throw unprocessable('title-invalid: a rename sends only { "title": "..." }; title_source is set by the server');
    }
    if (body.as_node !== undefined || checkpointOf(body)) throw unprocessable("title-invalid: a rename takes no as_node or checkpoint");
    return jsonResponse(await api.titles.rename(id, values.title));
  }
  return jsonResponse(await plainUpdate(api, id, body));
};

async function history(ctx: Parameters<Handler>[0], opts: { limit: number; before?: string | CheckpointRef; metadata?: Record<string, unknown>; checkpoint?: CheckpointRef; select?: string[] }) {
  const id = ctx.params.thread_id;
  await ctx.api.registry.head(id);
  const before = typeof opts.before === "string" ? { checkpoint_id: opts.before } : opts.before;
  // An unknown checkpoint is a 404, as for GET /state/{checkpoint_id}: not the whole history.
  for (const ref of [opts.checkpoint, before]) {
    if (!(await checkpointExists(ctx.api.checkpointer, id, ref))) throw notFound(`Checkpoint ${ref!.checkpoint_id}`);
  }
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
  const body = readBody(ctx, historySchema);
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
  jsonResponse(await api.registry.titleRequests(params.thread_id, intParam(url, "limit", 50, 1, 500), intParam(url, "offset", 0, 0, 1_000_000)));
