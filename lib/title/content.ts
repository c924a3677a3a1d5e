// Guards against self-referencing objects; real message content is never nested this deep.
const MAX_DEPTH = 32;

/** LangChain message content (string, content-block list or block object) → plain text. */
export function contentToText(content: unknown): string {
  return toText(content, 0);
}

function toText(content: unknown, depth: number): string {
  if (typeof content === "string") return content;
  if (depth >= MAX_DEPTH || content === null || typeof content !== "object") return "";
  if (Array.isArray(content)) {
    return content
      .map((part) => toText(part, depth + 1))
      .filter((t) => t !== "")
      .join("\n");
  }
  const obj = content as { text?: unknown; content?: unknown };
  if (typeof obj.text === "string") return obj.text;
  return toText(obj.content, depth + 1);
}
