import { matchesFilters } from "../../auth/enforce";
import { nowIso } from "../../store/clock";
import { jsonResponse, jsonTextResponse, notFound } from "../errors";
import { readBody, type Handler } from "../http";
import { threadCountSchema, threadCreateSchema, threadPatchSchema, threadSearchSchema } from "../schemas";
import { splitMetadata, threadSearchQuery } from "../../store/thread-query";
import { copyThread } from "../../store/thread-copy";

export const createThread: Handler = async (ctx) => {
  const { api } = ctx;
  const body = readBody(ctx, threadCreateSchema);
  const { filters, value } = ctx.authz;
  const existing = body.thread_id ? await api.registry.find(body.thread_id) : undefined;
  // Someone else's id: the same 404 every other route gives this caller for that thread (the
  // router's wording), whatever `if_exists` says, and their thread is neither returned nor touched.
  // (The LangGraph server says 409 "already exists", which confirms another user's thread.) Ids
  // are global, so a create with a chosen id can still tell a free id from a taken one; thread ids
  // are random UUIDs, so that only ever concerns an id the caller already holds.
  if (existing && !matchesFilters(JSON.parse(existing.metadata || "{}"), filters)) throw notFound(`Thread ${body.thread_id}`);
  const row = await api.registry.create({ threadId: body.thread_id, metadata: value.metadata ?? body.metadata, ifExists: body.if_exists });
  return jsonResponse(api.registry.threadJson(row));
};

export const getThread: Handler = async ({ api, params }) => jsonResponse(api.registry.threadJson(await api.registry.get(params.thread_id)));

export const patchThread: Handler = async (ctx) => {
  const { api, req, params } = ctx;
  const body = readBody(ctx, threadPatchSchema);
  await api.registry.head(params.thread_id);
  // The rules' copy of the patch: they keep `owner` from being changed.
  const patch = body.metadata ? (ctx.authz.value.metadata ?? body.metadata) : undefined;
  const row = patch ? await api.registry.patchMetadata(params.thread_id, patch) : await api.registry.get(params.thread_id);
  if (req.headers.get("prefer") === "return=minimal") return new Response(null, { status: 204 });
  return jsonResponse(api.registry.threadJson(row));
};

export const deleteThread: Handler = async ({ api, params }) => {
  const id = params.thread_id;
  await api.registry.head(id);
  const release = await api.runs.drain(id);
  try {
    await api.q.deleteThread(id); // checkpoints and registry rows in one transaction
  } finally {
    release();
  }
  return new Response(null, { status: 204 });
};

export const searchThreads: Handler = async (ctx) => {
  const { api } = ctx;
  const body = readBody(ctx, threadSearchSchema);
  const page = await api.registry.searchJson(threadSearchQuery(body, ctx.authz.filters));
  // The instant this page was read, on the server's clock: a client can pin it as `$as_of`.
  return jsonTextResponse(page, 200, { "X-Threadline-Server-Time": nowIso() });
};

export const countThreads: Handler = async (ctx) => {
  const { api } = ctx;
  const body = readBody(ctx, threadCountSchema);
  const { metadata, asOf, titleSearch } = splitMetadata(body.metadata);
  const n = await api.registry.count({
    metadata,
    values: body.values,
    status: body.status,
    titleSearch,
    asOf,
    sortBy: "created_at",
    sortOrder: "desc",
    limit: 0,
    offset: 0,
    withValues: false,
    authFilters: ctx.authz.filters,
  });
  return jsonResponse(n);
};

/** Like the LangGraph server: `threads:read` on the source (the router), then `threads:create` for the copy. */
export const copyThreadHandler: Handler = async ({ api, params, user }) => {
  const source = await api.registry.head(params.thread_id);
  const value = { metadata: JSON.parse(source.metadata || "{}") as Record<string, unknown> };
  await api.auth.rules.authorize(user, "threads:create", value);
  const row = await copyThread(api, params.thread_id, value.metadata);
  return jsonResponse(api.registry.threadJson(row));
};
