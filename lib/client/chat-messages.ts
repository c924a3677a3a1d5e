import { isStoppedAnswer } from "@/lib/chat/stopped-answer";
import { contentToText, isRealUserMessage, messageRole, userMessageText } from "@/lib/title";
import { attachmentViews, type AttachmentView } from "./message-attachments";

export interface ChatLine {
  key: string;
  role: "user" | "assistant";
  text: string;
  /** Files the user sent with this message (user lines only). */
  attachments?: AttachmentView[];
  /** An answer cut short by Stop (or another client's interrupt), kept as far as it got. */
  stopped?: true;
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
    } else if (role === "assistant") {
      const text = contentToText((m as { content?: unknown }).content);
      lines.push(isStoppedAnswer(m) ? { key, role: "assistant", text, stopped: true } : { key, role: "assistant", text });
    }
  });
  return lines;
}
