export {
  TitleConfigSchema,
  DEFAULT_TITLE_CONFIG,
  DEFAULT_TITLE_PROMPT,
  loadTitleConfig,
  TitleConfigError,
  type TitleConfig,
} from "./config";
export { contentToText } from "./content";
export {
  ORIGINAL_USER_TEXT_KEY,
  HIDDEN_CONTEXT_KEY,
  messageRole,
  isRealUserMessage,
  userMessageText,
  firstUserText,
} from "./messages";
export { sanitizeTitleText } from "./sanitize";
export { fallbackTitle, EMPTY_TITLE } from "./fallback";
export { stripThinkTags } from "./think";
export { parseModelTitle } from "./parse";
export { buildTitlePrompt } from "./prompt";
export { shouldGenerateTitle } from "./generate";
export { decideTitle, type TitleSourceKind, type TitleSource, type TitleFact } from "./precedence";
export { normalizeUserTitle, USER_TITLE_MAX_CHARS } from "./user-title";
export { parseTitleSource, titleFactOf, sameTitleFact } from "./fact";
