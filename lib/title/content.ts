// Real message content is never nested this deep; the cap and the ancestor set stop cycles.
const MAX_DEPTH = 32;

/** LangChain message content (string, content-block list or block object) → plain text. */
export function contentToText(content: unknown): string {
  return toText(content, new Set());
}

function toText(content: unknown, ancestors: Set<object>): string {
  if (typeof content === "string") return content;
  if (content === null || typeof content !== "object") return "";
  if (ancestors.has(content) || ancestors.size >= MAX_DEPTH) return "";
  ancestors.add(content);
  try {
    if (Array.isArray(content)) {
      return content
        .map((part) => toText(part, ancestors))
        .filter((t) => t !== "")
        .join("\n");
    }
    const obj = content as { text?: unknown; content?: unknown };
    if (typeof obj.text === "string") return obj.text;
    return toText(obj.content, ancestors);
  } finally {
    ancestors.delete(content);
  }
}
