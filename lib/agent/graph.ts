// Entry point for `langgraph dev` / LangGraph Platform (see langgraph.json): the same agent the
// Next.js server runs, with the platform's own checkpointer. There, the run context is plain JSON,
// so a pin is simply `title_source.kind === "user"` in state.
import { loadTitleConfig } from "@/lib/title/config";
import { createThreadlineAgent } from "./agent";
import { chatModelFromEnv, titlerFromEnv } from "./models";

// A factory: the platform awaits it, and initChatModel (provider models) is async.
export async function graph() {
  const titleConfig = loadTitleConfig(process.env);
  const agent = createThreadlineAgent({
    chatModel: await chatModelFromEnv(process.env),
    titleConfig,
    titler: await titlerFromEnv(process.env, titleConfig),
  });
  return agent.graph;
}
