import { fallbackTitle, userMessageText, type TitleConfig } from "@/lib/title";
import { attachmentViews } from "./message-attachments";

/**
 * The title the browser shows the moment a first message is sent, from the message itself so it
 * matches what the server computes from the same message.
 * Stand-in until lib/title's `fallbackTitleFor` lands: text first, else the attachments' names.
 */
export function instantTitleOf(message: { content: unknown }, config: Pick<TitleConfig, "max_chars">): string {
  const text = userMessageText(message);
  if (text.trim()) return fallbackTitle(text, config);
  const files = attachmentViews(message.content);
  const rest = files.length > 1 ? ` + ${files.length - 1} more` : "";
  return fallbackTitle(files.length ? `${files[0].name}${rest}` : "", config);
}
