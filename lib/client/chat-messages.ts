import { contentToText, isRealUserMessage, messageRole, userMessageText } from "@/lib/title";

export interface ChatLine {
  key: string;
  role: "user" | "assistant";
  text: string;
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
    if (role === "user" && isRealUserMessage(m)) lines.push({ key, role: "user", text: userMessageText(m) });
    else if (role === "assistant") lines.push({ key, role: "assistant", text: contentToText((m as { content?: unknown }).content) });
  });
  return lines;
}
