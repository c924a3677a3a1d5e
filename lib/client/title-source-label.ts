import type { TitleSource } from "@/lib/title";

/** The one line saying who named a conversation: row and header tooltips, screen readers, the title history. */
export function describeTitleSource(source: TitleSource | null | undefined): string {
  switch (source?.kind) {
    case "model": {
      const model = source.model?.trim();
      return model ? `Named by AI (${model})` : "Named by AI";
    }
    case "fallback":
      return "From your first message";
    case "user":
      return "Named by you";
    default:
      // Titles stored before provenance was recorded have no source.
      return "Not named yet";
  }
}
