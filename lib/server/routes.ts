import type { Router } from "./router";
import * as meta from "./handlers/meta";
import * as runs from "./handlers/runs";
import * as state from "./handlers/state";
import * as threads from "./handlers/threads";
import { restoreTitleHandler } from "./handlers/title-restore";

/** Every route under /api/langgraph. One table, so what the API serves is readable at a glance. */
export function buildRoutes(r: Router): Router {
  return r
    .add("GET", "/info", meta.info)
    .add("POST", "/assistants/search", meta.searchAssistants)
    .add("GET", "/assistants/:assistant_id", meta.getAssistant)
    .add("GET", "/assistants/:assistant_id/graph", meta.getAssistantGraph)
    .add("GET", "/assistants/:assistant_id/schemas", meta.getAssistantSchemas)
    .add("GET", "/assistants/:assistant_id/subgraphs", meta.getAssistantSubgraphs)
    .add("POST", "/threads", threads.createThread)
    .add("POST", "/threads/search", threads.searchThreads)
    .add("POST", "/threads/count", threads.countThreads)
    .add("GET", "/threads/:thread_id", threads.getThread)
    .add("PATCH", "/threads/:thread_id", threads.patchThread)
    .add("DELETE", "/threads/:thread_id", threads.deleteThread)
    .add("POST", "/threads/:thread_id/copy", threads.copyThreadHandler)
    .add("GET", "/threads/:thread_id/state", state.getState)
    .add("POST", "/threads/:thread_id/state", state.updateState)
    .add("POST", "/threads/:thread_id/state/checkpoint", state.postStateCheckpoint)
    .add("GET", "/threads/:thread_id/state/:checkpoint_id", state.getStateAtCheckpoint)
    .add("GET", "/threads/:thread_id/history", state.getHistory)
    .add("POST", "/threads/:thread_id/history", state.postHistory)
    .add("POST", "/threads/:thread_id/title/regenerate", state.regenerateTitle)
    .add("POST", "/threads/:thread_id/title/restore", restoreTitleHandler)
    .add("GET", "/threads/:thread_id/title/requests", state.listTitleRequests)
    .add("POST", "/threads/:thread_id/runs/stream", runs.streamRun)
    .add("POST", "/threads/:thread_id/runs/wait", runs.waitRun)
    .add("POST", "/threads/:thread_id/runs", runs.createRun)
    .add("GET", "/threads/:thread_id/runs", runs.listRuns)
    .add("GET", "/threads/:thread_id/runs/:run_id", runs.getRun)
    .add("DELETE", "/threads/:thread_id/runs/:run_id", runs.deleteRun)
    .add("GET", "/threads/:thread_id/runs/:run_id/stream", runs.joinRunStream)
    .add("GET", "/threads/:thread_id/runs/:run_id/join", runs.joinRun)
    .add("POST", "/threads/:thread_id/runs/:run_id/cancel", runs.cancelRun);
}
