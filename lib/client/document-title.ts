import { EMPTY_TITLE } from "@/lib/title";

/** The tab title for a conversation; the server's metadata and the client use the same format. */
export function documentTitleFor(title: string | null | undefined): string {
  return `${title || EMPTY_TITLE} · Threadline`;
}

export const CONVERSATION_NOT_FOUND = "Conversation not found";
export const PAGE_NOT_FOUND = "Page not found";
