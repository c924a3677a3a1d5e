import type { Router } from "./router";
import * as meta from "./handlers/meta";
import * as runs from "./handlers/runs";
import * as state from "./handlers/state";
import * as threads from "./handlers/threads";
import { READS } from "./router";
import { restoreTitleHandler } from "./handlers/title-restore";

/**
 * Every route under /api/langgraph with the LangGraph auth event it raises (the same event the
 * LangGraph server raises for that operation). One table, so what the API serves is readable at a glance.
 * READS: a POST that changes nothing, answered like a GET without waiting for anyone's fsync
 * (while runs stream there is nearly always a commit waiting for one; each sidebar page waited).
 */
export function buildRoutes(r: Router): Router {
  return r
    .add("GET", "/info", meta.info)
    .add("POST", "/assistants/search", meta.searchAssistants, "assistants:search", READS)
    .add("GET", "/assistants/:assistant_id", meta.getAssistant, "assistants:read")
    .add("GET", "/assistants/:assistant_id/graph", meta.getAssistantGraph, "assistants:read")
    .add("GET", "/assistants/:assistant_id/schemas", meta.getAssistantSchemas, "assistants:read")
    .add("GET", "/assistants/:assistant_id/subgraphs", meta.getAssistantSubgraphs, "assistants:read")
    .add("POST", "/threads", threads.createThread, "threads:create")
    .add("POST", "/threads/search", threads.searchThreads, "threads:search", READS)
    .add("POST", "/threads/count", threads.countThreads, "threads:search", READS)
    .add("GET", "/threads/:thread_id", threads.getThread, "threads:read")
    .add("PATCH", "/threads/:thread_id", threads.patchThread, "threads:update")
    .add("DELETE", "/threads/:thread_id", threads.deleteThread, "threads:delete")
    .add("POST", "/threads/:thread_id/copy", threads.copyThreadHandler, "threads:read")
    .add("GET", "/threads/:thread_id/state", state.getState, "threads:read")
    .add("POST", "/threads/:thread_id/state", state.updateState, "threads:update")
    .add("POST", "/threads/:thread_id/state/checkpoint", state.postStateCheckpoint, "threads:read", READS)
    .add("GET", "/threads/:thread_id/state/:checkpoint_id", state.getStateAtCheckpoint, "threads:read")
    .add("GET", "/threads/:thread_id/history", state.getHistory, "threads:read")
    .add("POST", "/threads/:thread_id/history", state.postHistory, "threads:read", READS)
    .add("POST", "/threads/:thread_id/title/regenerate", state.regenerateTitle, "threads:update")
    .add("POST", "/threads/:thread_id/title/restore", restoreTitleHandler, "threads:update")
    .add("GET", "/threads/:thread_id/title/requests", state.listTitleRequests, "threads:read")
    .add("POST", "/threads/:thread_id/runs/stream", runs.streamRun, "threads:create_run")
    .add("POST", "/threads/:thread_id/runs/wait", runs.waitRun, "threads:create_run")
    .add("POST", "/threads/:thread_id/runs", runs.createRun, "threads:create_run")
    .add("GET", "/threads/:thread_id/runs", runs.listRuns, "threads:search")
    .add("GET", "/threads/:thread_id/runs/:run_id", runs.getRun, "threads:read")
    .add("DELETE", "/threads/:thread_id/runs/:run_id", runs.deleteRun, "threads:delete")
    .add("GET", "/threads/:thread_id/runs/:run_id/stream", runs.joinRunStream, "threads:read")
    .add("GET", "/threads/:thread_id/runs/:run_id/join", runs.joinRun, "threads:read")
    .add("POST", "/threads/:thread_id/runs/:run_id/cancel", runs.cancelRun, "threads:update");
}
