import type { TitleSource } from "@/lib/title";

/** One line saying who named a conversation, for tooltips and the title history. */
export function describeTitleSource(source: TitleSource | null | undefined): string {
  switch (source?.kind) {
    case "model": {
      const model = source.model?.trim();
      return model ? `Named by AI (${model})` : "Named by AI";
    }
    case "fallback":
      return "From your first message";
    case "user":
      return "Renamed by you";
    default:
      // Titles stored before provenance was recorded have no source.
      return "Origin unknown";
  }
}
