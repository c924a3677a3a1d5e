export { ASSISTANT_ID, SYSTEM_PROMPT, createThreadlineAgent, type ThreadlineAgent, type ThreadlineAgentOptions } from "./agent";
export { TITLE_WRITER_NODE, createTitleMiddleware, fallbackTitleGenerator, type TitleGenerator, type TitleRuntimeContext } from "./title-middleware";
export { OFFLINE_MODEL_NAME, OfflineChatModel, createOfflineChatModel, offlineReply } from "./offline-model";
export { chatModelFromEnv, offlineDelayMs, usesOfflineModel } from "./models";
export { titleSourceSchema, titleStateSchema } from "./title-state";
export { dataDir, getAppAgent, openAppAgent, type AppAgent } from "./runtime";
