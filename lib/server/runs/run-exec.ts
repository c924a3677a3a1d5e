import { Command } from "@langchain/langgraph";
import type { TitleRequestRecord } from "@/lib/agent/title-model";
import { threadConfig, type AgentGraph } from "../graph";
import type { LiveRun } from "./live-run";
import type { Registry } from "../store/registry";
import { PRODUCED_STREAM_MODES, checkpointOf } from "../http/schemas";
import { toJson } from "../store/serde";

/** Client stream mode → graph stream mode. "messages-tuple" is the graph's "messages" mode. */
const GRAPH_MODE: Record<string, string> = { "messages-tuple": "messages" };
const PRODUCED = new Set<string>(PRODUCED_STREAM_MODES);

function runInput(run: LiveRun): unknown {
  const { command, input } = run.body;
  if (command) return new Command({ resume: command.resume, update: command.update as never, goto: command.goto as never });
  return input ?? null;
}

/**
 * Runs the graph for one run and emits its events. Always streams "values" (the registry's
 * projection needs them) and "messages" (the answer kept if the run is stopped) internally, but
 * only emits the modes the client asked for. Throws on
 * failure or abort; the run manager decides what that means.
 */
export async function executeRun(graph: AgentGraph, registry: Registry, run: LiveRun): Promise<void> {
  const { body, threadId, runId } = run;
  const requested = new Set<string>(run.modes.filter((m) => PRODUCED.has(m)));
  const graphModes = [...new Set(["values", "messages", ...[...requested].map((m) => GRAPH_MODE[m] ?? m)])];
  const subgraphs = body.stream_subgraphs === true;
  const meta = { graph_id: "agent", assistant_id: body.assistant_id, run_id: runId, thread_id: threadId };

  const stream = await graph.stream(runInput(run), {
    configurable: { ...body.config?.configurable, ...threadConfig(threadId, checkpointOf(body)).configurable },
    // The middleware asks this right before any automatic title write (a rename may race the run),
    // and stores every title-model request it makes through the audit sink.
    context: {
      ...body.context,
      readTitlePin: () => registry.readPin(threadId),
      recordTitleRequest: (record: TitleRequestRecord) => registry.recordTitleRequest(record),
    },
    streamMode: graphModes,
    subgraphs,
    signal: run.abort.signal,
    runId,
    metadata: { ...body.config?.metadata, ...body.metadata, ...meta },
    ...(body.config?.tags ? { tags: body.config.tags } : {}),
    ...(body.config?.recursion_limit ? { recursionLimit: body.config.recursion_limit } : {}),
    ...(body.interrupt_before ? { interruptBefore: body.interrupt_before } : {}),
    ...(body.interrupt_after ? { interruptAfter: body.interrupt_after } : {}),
    ...(body.durability ? { durability: body.durability } : {}),
  });

  for await (const chunk of stream) {
    const parts = chunk as unknown[];
    const [ns, mode, payload] = subgraphs ? (parts as [string[], string, unknown]) : [[], ...(parts as [string, unknown])];
    const clientMode = mode === "messages" ? "messages-tuple" : mode;
    const isRootValues = mode === "values" && ns.length === 0;
    if (mode === "messages") run.streamed.observe(payload);
    if (!isRootValues && !requested.has(clientMode)) continue;
    const data = toJson(payload);
    if (isRootValues) await registry.projectValues(threadId, payload, data);
    if (!requested.has(clientMode)) continue;
    run.emit(ns.length ? `${mode}|${ns.join("|")}` : mode, data);
  }
}
