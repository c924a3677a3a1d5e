import { nowIso } from "../../store/clock";
import { jsonResponse, notFound } from "../errors";
import { readBody, type Handler } from "../http";
import { assistantSearchSchema } from "../schemas";

const ASSISTANT_ID = "agent";
const CREATED_AT = "2025-01-01T00:00:00.000Z";

/** The one assistant: the agent graph under its own id (what `langgraph dev` would show for it). */
const assistant = () => ({
  assistant_id: ASSISTANT_ID,
  graph_id: ASSISTANT_ID,
  name: ASSISTANT_ID,
  description: "Threadline chat agent",
  config: {},
  context: {},
  metadata: { created_by: "system" },
  version: 1,
  created_at: CREATED_AT,
  updated_at: CREATED_AT,
});

function requireAssistant(id: string) {
  if (id !== ASSISTANT_ID) throw notFound(`Assistant ${id}`);
}

export const info: Handler = () =>
  jsonResponse({
    version: "threadline-0.1",
    langgraph_js_sdk: "1.15.0",
    flags: { assistants: true, crons: false, langsmith: false },
    // Clients pin this (or the X-Threadline-Server-Time header of a search) as `$as_of`.
    server_time: nowIso(),
  });

export const searchAssistants: Handler = async (ctx) => {
  const body = readBody(ctx, assistantSearchSchema);
  const a = assistant();
  const matches =
    (body.graph_id == null || body.graph_id === a.graph_id) &&
    (body.name == null || a.name.includes(body.name)) &&
    Object.entries(body.metadata ?? {}).every(([k, v]) => (a.metadata as Record<string, unknown>)[k] === v);
  const offset = body.offset ?? 0;
  const limit = body.limit ?? 10;
  return jsonResponse((matches ? [a] : []).slice(offset, offset + limit));
};

export const getAssistant: Handler = ({ params }) => {
  requireAssistant(params.assistant_id);
  return jsonResponse(assistant());
};

export const getAssistantGraph: Handler = async ({ api, params }) => {
  requireAssistant(params.assistant_id);
  const graph = await api.graph.getGraphAsync?.();
  return jsonResponse(graph ? graph.toJSON() : { nodes: [], edges: [] });
};

export const getAssistantSchemas: Handler = ({ params }) => {
  requireAssistant(params.assistant_id);
  return jsonResponse({
    graph_id: ASSISTANT_ID,
    input_schema: null,
    output_schema: null,
    state_schema: null,
    config_schema: null,
    context_schema: null,
  });
};

export const getAssistantSubgraphs: Handler = ({ params }) => {
  requireAssistant(params.assistant_id);
  return jsonResponse({});
};
