import { contentToText, isRealUserMessage, messageRole, userMessageText } from "@/lib/title";
import { attachmentViews, type AttachmentView } from "./message-attachments";

export interface ChatLine {
  key: string;
  role: "user" | "assistant";
  text: string;
  /** Files the user sent with this message (user lines only). */
  attachments?: AttachmentView[];
}

/**
 * The messages a person should see: their own (as typed, never hidden context reminders) and
 * the assistant's text. Tool and system messages are left out.
 */
export function visibleMessages(messages: readonly unknown[] | null | undefined): ChatLine[] {
  const lines: ChatLine[] = [];
  (messages ?? []).forEach((m, i) => {
    const id = (m as { id?: unknown } | null)?.id;
    const key = typeof id === "string" && id ? id : `i${i}`;
    const role = messageRole(m);
    if (role === "user" && isRealUserMessage(m)) {
      const attachments = attachmentViews((m as { content?: unknown }).content);
      lines.push({ key, role: "user", text: userMessageText(m), ...(attachments.length ? { attachments } : {}) });
    } else if (role === "assistant") lines.push({ key, role: "assistant", text: contentToText((m as { content?: unknown }).content) });
  });
  return lines;
}
