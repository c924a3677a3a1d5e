import { EMPTY_TITLE } from "@/lib/title";

/** The tab title for a conversation; the server's metadata and the client use the same format. */
export function documentTitleFor(title: string | null | undefined): string {
  return `${title || EMPTY_TITLE} · Threadline`;
}
