import { truncateGraphemes } from "./graphemes";
import { isRealUserMessage, messageContent } from "./messages";
import { sanitizeTitleText } from "./sanitize";

export type AttachmentKind = "image" | "pdf" | "text" | "file";
export type AttachmentInfo = { name: string; kind: AttachmentKind; size?: number };

/** Names shown when a block carries no file name (a pasted screenshot has none). */
export const UNNAMED: Readonly<Record<AttachmentKind, string>> = { image: "image", pdf: "file", text: "file", file: "file" };

// A name is user input shown in titles and prompts: bounded like any other text we show.
const NAME_MAX_GRAPHEMES = 100;
// A message never legitimately carries more; the cap bounds work on a hostile payload.
const MAX_ATTACHMENTS = 100;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

const IMAGE_EXT = /\.(?:png|jpe?g|gif|webp|bmp|svg|heic|heif|avif|tiff?)$/i;
const TEXT_EXT = /\.(?:txt|md|markdown|csv|tsv|json|log|ya?ml|xml|html?)$/i;

function kindOf(mime: string | undefined, name: string | undefined): AttachmentKind {
  const m = mime?.trim().toLowerCase();
  if (m) {
    if (m.startsWith("image/")) return "image";
    if (m === "application/pdf") return "pdf";
    if (m.startsWith("text/")) return "text";
    return "file";
  }
  // Without a MIME type the extension is the only hint we have.
  if (name === undefined) return "file";
  if (/\.pdf$/i.test(name)) return "pdf";
  if (IMAGE_EXT.test(name)) return "image";
  return TEXT_EXT.test(name) ? "text" : "file";
}

function cleanName(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // Some clients send a full path ("C:\fakepath\report.pdf"); only the base name means anything.
  const base = raw.slice(Math.max(raw.lastIndexOf("/"), raw.lastIndexOf("\\")) + 1);
  const name = truncateGraphemes(sanitizeTitleText(base.slice(0, NAME_MAX_GRAPHEMES * 16)), NAME_MAX_GRAPHEMES).trim();
  return name === "" ? undefined : name;
}

function nameOf(block: Obj): string | undefined {
  const meta = isObj(block.metadata) ? block.metadata : {};
  const file = isObj(block.file) ? block.file : {};
  return str(meta.filename) ?? str(meta.name) ?? str(block.filename) ?? str(block.name) ?? str(file.filename);
}

function sizeOf(block: Obj): number | undefined {
  const size = isObj(block.metadata) ? block.metadata.size : undefined;
  return typeof size === "number" && Number.isFinite(size) && size >= 0 ? size : undefined;
}

function blockAttachment(block: unknown): AttachmentInfo | null {
  if (!isObj(block)) return null;
  const type = block.type;
  if (type !== "image" && type !== "file" && type !== "image_url") return null;
  const name = cleanName(nameOf(block));
  // Older LangChain blocks spell it mime_type; OpenAI's file blocks nest it nowhere, so the name decides.
  const kind = type === "file" ? kindOf(str(block.mimeType) ?? str(block.mime_type), name) : "image";
  const size = sizeOf(block);
  return { name: name ?? UNNAMED[kind], kind, ...(size === undefined ? {} : { size }) };
}

/** The files and images a user message carries (names and kinds only — never their bytes). */
export function messageAttachments(message: unknown): AttachmentInfo[] {
  const content = Array.isArray(message) ? message : messageContent(message);
  if (!Array.isArray(content)) return [];
  const out: AttachmentInfo[] = [];
  for (const block of content.slice(0, MAX_ATTACHMENTS)) {
    const a = blockAttachment(block);
    if (a) out.push(a);
  }
  return out;
}

/** The first message the user really typed (hidden context reminders skipped), or null. */
export function firstUserMessage(messages: unknown[] | null | undefined): unknown {
  return (messages ?? []).find(isRealUserMessage) ?? null;
}

export function isNamed(a: AttachmentInfo): boolean {
  return a.name !== UNNAMED[a.kind];
}
