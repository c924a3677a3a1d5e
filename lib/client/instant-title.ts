import { fallbackTitleFor, messageAttachments, userMessageText, type TitleConfig } from "@/lib/title";

/**
 * The title the browser shows the moment a first message is sent. It reads the message exactly as
 * the server will (its text, else its attachments' names), so the two cannot disagree.
 */
export function instantTitleOf(message: { content: unknown }, config: Pick<TitleConfig, "max_chars">): string {
  return fallbackTitleFor({ text: userMessageText(message), attachments: messageAttachments(message) }, config);
}
