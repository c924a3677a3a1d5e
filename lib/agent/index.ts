export { ASSISTANT_ID, SYSTEM_PROMPT, createThreadlineAgent, type ThreadlineAgent, type ThreadlineAgentOptions } from "./agent";
export { TITLE_WRITER_NODE, createTitleMiddleware, type TitleRuntimeContext } from "./title-middleware";
export {
  createModelTitler,
  TITLE_CALL_TAGS,
  TITLE_FAILURE_PREFIX,
  TITLE_RUN_NAME,
  type ModelTitler,
  type TitleAttempt,
  type TitleAuditSink,
  type TitleRequestRecord,
} from "./title-model";
export { proposeFallbackTitle } from "./title-proposals";
export { OFFLINE_MODEL_NAME, OfflineChatModel, createOfflineChatModel, offlineReply } from "./offline-model";
export { chatModelFromEnv, offlineDelayMs, parseModelSpec, titleModelFromEnv, titlerFromEnv, usesOfflineModel, validateModelEnv, ModelConfigError } from "./models";
export { titleSourceSchema, titleStateSchema } from "./title-state";
export { dataDir, getAppAgent, openAppAgent, type AppAgent } from "./runtime";
