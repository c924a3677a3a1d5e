import { fallbackTitleFor, isRealUserMessage, messageAttachments, userMessageText, type TitleConfig, type TitleSource } from "@/lib/title";

export type TitleProposal = { title: string; source: TitleSource };

/** The local title from the first real user message: its text, else its attachments' names. */
export function proposeFallbackTitle(messages: unknown[] | undefined, config: TitleConfig): TitleProposal | null {
  const first = (messages ?? []).find(isRealUserMessage);
  if (first === undefined) return null;
  const title = fallbackTitleFor({ text: userMessageText(first), attachments: messageAttachments(first) }, config);
  return { title, source: { kind: "fallback" } };
}
