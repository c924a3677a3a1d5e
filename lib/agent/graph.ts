// Entry point for `langgraph dev` / LangGraph Platform (see langgraph.json): the same agent the
// Next.js server runs, with the platform's own checkpointer. There, the run context is plain JSON,
// so a pin is simply `title_source.kind === "user"` in state.
import { loadTitleConfig } from "@/lib/title";
import { createThreadlineAgent } from "./agent";
import { chatModelFromEnv } from "./models";

export const graph = createThreadlineAgent({
  chatModel: chatModelFromEnv(process.env),
  titleConfig: loadTitleConfig(process.env),
}).graph;
