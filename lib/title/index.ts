export {
  TitleConfigSchema,
  DEFAULT_TITLE_CONFIG,
  loadTitleConfig,
  TitleConfigError,
  type TitleConfig,
  type TitleCadence,
  type FallbackCut,
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
export { fallbackTitle, fallbackTitleFor, attachmentsTitle, EMPTY_TITLE } from "./fallback";
export { messageAttachments, firstUserMessage, type AttachmentInfo, type AttachmentKind } from "./attachments";
export { stripThinkTags } from "./think";
export { parseModelTitle } from "./parse";
export { buildTitleRequest, type TitleRequest, type TitleRequestInput } from "./prompt";
export { validateModelTitle, type TitleVerdict } from "./validate";
export { shouldGenerateTitle } from "./generate";
export { decideTitle, type TitleSourceKind, type TitleSource, type TitleFact } from "./precedence";
export { normalizeUserTitle, USER_TITLE_MAX_CHARS } from "./user-title";
export { parseTitleSource, titleFactOf, sameTitleFact } from "./fact";
