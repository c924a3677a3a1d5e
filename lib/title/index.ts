// The settings' schema and loadTitleConfig (config.ts, with zod) are imported from
// "@/lib/title/config" by the server; the browser takes only the types and the defaults.
export type { TitleConfig, TitleCadence, FallbackCut } from "./config";
export { DEFAULT_TITLE_CONFIG } from "./defaults";
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
export { decideTitle, titleLeftBehind, type TitleSourceKind, type TitleSource, type TitleFact } from "./precedence";
export { normalizeUserTitle, USER_TITLE_MAX_CHARS } from "./user-title";
export { parseTitleSource, titleFactOf, sameTitleFact } from "./fact";
