import type { ContentBlock } from "@langchain/core/messages";

const MiB = 1024 * 1024;

/** Largest single file a message may carry. */
export const MAX_FILE_BYTES = 5 * MiB;
/**
 * Largest total per message. Base64 grows the bytes by 4/3, so 15 MiB travels as 20 MiB: under
 * the API's 25 MiB cap on a run-creation body, with room for the rest of the request.
 */
export const MAX_MESSAGE_BYTES = 15 * MiB;
export const MAX_FILES_PER_MESSAGE = 10;

export type AttachmentKind = "image" | "pdf" | "text";

/** A file read into the composer, ready to become a content block. */
export interface ComposerAttachment {
  id: string;
  name: string;
  size: number;
  mimeType: string;
  kind: AttachmentKind;
  /** The file's bytes, base64 (what the content block carries). */
  data: string;
}

/** The part of a browser `File` these checks need (so tests can pass plain objects). */
export interface FileLike {
  name: string;
  size: number;
  type: string;
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const TEXT_BY_EXTENSION: Record<string, string> = {
  txt: "text/plain",
  text: "text/plain",
  log: "text/plain",
  md: "text/markdown",
  markdown: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  xml: "application/xml",
};
const IMAGE_BY_EXTENSION: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" };

export const ACCEPTED_FILES_HINT = "images (PNG, JPEG, GIF, WebP), PDFs and text files";
/** The file picker's `accept`: the same list the checks enforce. */
export const ACCEPT_ATTRIBUTE = [
  ...IMAGE_TYPES,
  "application/pdf",
  ".pdf",
  "text/plain",
  ...Object.keys(TEXT_BY_EXTENSION).map((ext) => `.${ext}`),
  ...Object.keys(IMAGE_BY_EXTENSION).map((ext) => `.${ext}`),
].join(",");

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/**
 * What a file is, from its declared type and, when the browser gives none (common for .md or
 * .csv), its extension. null = not something a message may carry.
 */
export function classifyFile(file: Pick<FileLike, "name" | "type">): { kind: AttachmentKind; mimeType: string } | null {
  const declared = file.type.split(";")[0].trim().toLowerCase();
  const ext = extensionOf(file.name);
  if (IMAGE_TYPES.has(declared)) return { kind: "image", mimeType: declared };
  if (declared === "application/pdf") return { kind: "pdf", mimeType: declared };
  if (declared.startsWith("text/")) return { kind: "text", mimeType: declared };
  if (TEXT_BY_EXTENSION[ext] && (declared === "" || declared === TEXT_BY_EXTENSION[ext] || declared === "application/octet-stream")) {
    return { kind: "text", mimeType: TEXT_BY_EXTENSION[ext] };
  }
  if (declared === "" && IMAGE_BY_EXTENSION[ext]) return { kind: "image", mimeType: IMAGE_BY_EXTENSION[ext] };
  if (declared === "" && ext === "pdf") return { kind: "pdf", mimeType: "application/pdf" };
  return null;
}

/** "820 B", "12 KB", "4.5 MB": binary units, as the limits are. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MiB) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / MiB;
  return `${mb < 10 ? Math.round(mb * 10) / 10 : Math.round(mb)} MB`;
}

/** A size over `limit` never reads as the limit itself ("5 MB; at most 5 MB"). */
const sizeOver = (bytes: number, limit: number) => (formatBytes(bytes) === formatBytes(limit) ? `more than ${formatBytes(limit)}` : formatBytes(bytes));

const listOf = (items: readonly string[]) => new Intl.ListFormat("en", { type: "conjunction" }).format(items);

type Limit = "type" | "file size" | "message size" | "count";
/** The files refused for one limit, with what each would have made the message. */
export interface Refusal {
  limit: Limit;
  files: { name: string; size: number; messageTotal: number }[];
}

export interface AdmitResult<F extends FileLike> {
  admitted: F[];
  /** One entry per limit broken, in the order each was first broken; empty when all were admitted. */
  refused: Refusal[];
}

/** Which of a message's limits the files in the composer already pass (possible only after a put-back). */
export interface LimitsPassed {
  count: boolean;
  size: boolean;
}

export function limitsPassed(attachments: readonly Pick<FileLike, "size">[]): LimitsPassed {
  return { count: attachments.length > MAX_FILES_PER_MESSAGE, size: attachments.reduce((sum, a) => sum + a.size, 0) > MAX_MESSAGE_BYTES };
}

/**
 * One sentence for the files refused for one limit: the limit said once, whatever their number.
 * A limit the held files pass is stated by overLimit's line beside it, so the sentence leaves it out.
 */
function refusalSentence({ limit, files }: Refusal, passed: LimitsPassed): string {
  const names = () => listOf(files.map((f) => `"${f.name}"`));
  switch (limit) {
    case "type":
      return `${names()} can't be attached: only ${ACCEPTED_FILES_HINT}.`;
    case "file size":
      return `${listOf(files.map((f) => `"${f.name}" is ${sizeOver(f.size, MAX_FILE_BYTES)}`))}; each file can be at most ${formatBytes(MAX_FILE_BYTES)}.`;
    case "message size":
      if (passed.size) return `${names()} not added: this message's files already add up to more than it can carry.`;
      return files.length === 1
        ? `${names()} would bring this message to ${sizeOver(files[0].messageTotal, MAX_MESSAGE_BYTES)}; a message can carry at most ${formatBytes(MAX_MESSAGE_BYTES)}.`
        : `${names()} would bring this message past ${formatBytes(MAX_MESSAGE_BYTES)}, the most a message can carry.`;
    case "count":
      if (passed.count) return `${names()} not added: this message already holds more files than it can carry.`;
      return `${names()} not added: a message can carry at most ${MAX_FILES_PER_MESSAGE} files.`;
  }
}

/**
 * Why files were refused, one sentence per limit, for a composer whose files now pass `passed`:
 * phrased when shown, not when refused, since a put-back can bring the held files past a limit
 * while a refusal is on screen. null when nothing was refused.
 */
export function refusalText(refused: readonly Refusal[], passed: LimitsPassed): string | null {
  return refused.length ? refused.map((r) => refusalSentence(r, passed)).join(" ") : null;
}

/**
 * Which of the new files fit beside those already in the composer. Files are taken in order;
 * one that breaks a limit is refused and the rest still get their chance.
 */
export function admitFiles<F extends FileLike>(current: readonly Pick<FileLike, "size">[], incoming: readonly F[]): AdmitResult<F> {
  const admitted: F[] = [];
  const refused: Refusal[] = [];
  const refuse = (limit: Limit, file: Refusal["files"][number]) => {
    const entry = refused.find((r) => r.limit === limit);
    if (entry) entry.files.push(file);
    else refused.push({ limit, files: [file] });
  };
  let total = current.reduce((sum, a) => sum + a.size, 0);
  let count = current.length;
  for (const file of incoming) {
    const r = { name: file.name || "pasted file", size: file.size, messageTotal: total + file.size };
    if (!classifyFile(file)) refuse("type", r);
    else if (file.size > MAX_FILE_BYTES) refuse("file size", r);
    else if (total + file.size > MAX_MESSAGE_BYTES) refuse("message size", r);
    else if (count + 1 > MAX_FILES_PER_MESSAGE) refuse("count", r);
    else {
      admitted.push(file);
      total += file.size;
      count += 1;
    }
  }
  return { admitted, refused };
}

/**
 * Why files already in the composer cannot go in one message, or null. Files added by hand are
 * held to the limits as they come (admitFiles); files put back after a stopped send are never
 * dropped, so together with files added since they may be over, and Send waits until some go.
 */
export function overLimit(attachments: readonly Pick<FileLike, "size">[]): string | null {
  const total = attachments.reduce((sum, a) => sum + a.size, 0);
  const passed = limitsPassed(attachments);
  const problems: string[] = [];
  if (passed.count) problems.push(`${attachments.length} files are attached; a message can carry at most ${MAX_FILES_PER_MESSAGE}.`);
  if (passed.size) problems.push(`The files add up to ${sizeOver(total, MAX_MESSAGE_BYTES)}; a message can carry at most ${formatBytes(MAX_MESSAGE_BYTES)}.`);
  return problems.length ? `${problems.join(" ")} Remove some to send.` : null;
}

/** Bytes → base64 in slices, since one String.fromCharCode call cannot take megabytes of arguments. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  const SLICE = 0x8000;
  for (let i = 0; i < bytes.length; i += SLICE) binary += String.fromCharCode(...bytes.subarray(i, i + SLICE));
  return btoa(binary);
}

/** A pasted screenshot has no useful name ("image.png"): give it one that says what it is. */
function nameFor(file: FileLike & { lastModified?: number }, mimeType: string): string {
  if (file.name && file.name !== "image.png") return file.name;
  const ext = Object.entries(IMAGE_BY_EXTENSION).find(([, type]) => type === mimeType)?.[0] ?? "png";
  return `pasted-image.${ext}`;
}

/** Reads an admitted file into the composer's shape. Throws on a file `classifyFile` refuses. */
export async function readAttachment(file: FileLike & { arrayBuffer(): Promise<ArrayBuffer> }): Promise<ComposerAttachment> {
  const type = classifyFile(file);
  if (!type) throw new Error(`"${file.name}" can't be attached`);
  const bytes = new Uint8Array(await file.arrayBuffer());
  return {
    id: crypto.randomUUID(),
    name: type.kind === "image" ? nameFor(file, type.mimeType) : file.name,
    size: bytes.byteLength,
    mimeType: type.mimeType,
    kind: type.kind,
    data: bytesToBase64(bytes),
  };
}

/**
 * LangChain's standard blocks (@langchain/core 1.x): images as `image`, PDFs and text files as
 * `file`, base64 inline; the name travels in `metadata.filename`, where provider converters look.
 */
export function attachmentBlock(a: ComposerAttachment): ContentBlock.Multimodal.Image | ContentBlock.Multimodal.File {
  const metadata = { filename: a.name, size: a.size };
  return a.kind === "image"
    ? { type: "image", mimeType: a.mimeType, data: a.data, metadata }
    : { type: "file", mimeType: a.mimeType, data: a.data, metadata };
}

/** A user message's content: plain text as before, or a text block followed by the files. */
export function userMessageContent(text: string, attachments: readonly ComposerAttachment[]): string | ContentBlock.Standard[] {
  if (attachments.length === 0) return text;
  const blocks: ContentBlock.Standard[] = text.trim() ? [{ type: "text", text }] : [];
  return [...blocks, ...attachments.map(attachmentBlock)];
}
