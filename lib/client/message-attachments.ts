import { formatBytes } from "./attachments";

/** One attachment of a stored message, as the chat shows it. */
export interface AttachmentView {
  key: string;
  name: string;
  kind: "image" | "pdf" | "text" | "file";
  mimeType: string;
  /** Human-readable size, when the message recorded it. */
  sizeLabel: string | null;
  /** Inline `data:` URL for an image thumbnail; never a remote address. */
  imageSrc: string | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null;
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

// Only plain base64 goes into a data URL we build: anything else could smuggle markup or a URL.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SAFE_IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;

function kindOf(type: string, mimeType: string): AttachmentView["kind"] {
  if (type === "image" || mimeType.startsWith("image/")) return "image";
  if (mimeType === "application/pdf") return "pdf";
  if (mimeType.startsWith("text/") || mimeType === "application/json") return "text";
  return "file";
}

function viewOf(block: Obj, index: number): AttachmentView | null {
  const type = block.type;
  if (type !== "image" && type !== "file") return null;
  const metadata = isObj(block.metadata) ? block.metadata : {};
  const mimeType = (str(block.mimeType) ?? str(block.mime_type) ?? "").toLowerCase();
  const kind = kindOf(type, mimeType);
  const name = str(metadata.filename) ?? str(metadata.name) ?? str(metadata.title) ?? (kind === "image" ? "image" : "file");
  const size = typeof metadata.size === "number" && Number.isFinite(metadata.size) && metadata.size >= 0 ? metadata.size : null;
  const data = str(block.data);
  const imageSrc =
    kind === "image" && data && SAFE_IMAGE_TYPE.test(mimeType) && BASE64.test(data) ? `data:${mimeType};base64,${data}` : null;
  return { key: str(block.id) ?? `a${index}`, name, kind, mimeType, sizeLabel: size === null ? null : formatBytes(size), imageSrc };
}

/** The files a message carries (standard `image`/`file` content blocks), in order. */
export function attachmentViews(content: unknown): AttachmentView[] {
  if (!Array.isArray(content)) return [];
  const views: AttachmentView[] = [];
  content.forEach((block, i) => {
    const view = isObj(block) ? viewOf(block, i) : null;
    if (view) views.push(view);
  });
  return views;
}
