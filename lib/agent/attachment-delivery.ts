import { createMiddleware } from "langchain";
import { HumanMessage, type BaseMessage, type ContentBlock } from "@langchain/core/messages";
import { OfflineChatModel } from "./offline-model";

type Block = ContentBlock.Standard | Record<string, unknown>;

const TEXT_LIKE = /^(text\/[\w.+-]+|application\/(json|xml|yaml|x-yaml))$/;

/** A standard (v1) data block: an image or file carried inline, by URL or by provider id. */
function isStandardDataBlock(block: Block): boolean {
  if (block.type !== "image" && block.type !== "file") return false;
  // Legacy v0 blocks carry `source_type`; providers already convert those on their own.
  return !("source_type" in block) && ("data" in block || "url" in block || "fileId" in block);
}

function filenameOf(block: Block): string {
  const meta = block.metadata as { filename?: unknown } | undefined;
  return typeof meta?.filename === "string" && meta.filename ? meta.filename : "file";
}

/**
 * Neither provider takes a text file as a file (OpenAI's chat API reads PDFs only; Anthropic's
 * base64 documents are PDFs), but every model reads text: the file's contents go in as a text
 * part that names it.
 */
function textFileAsText(block: Block): Block {
  const data = block.data;
  const bytes = typeof data === "string" ? Buffer.from(data, "base64") : Buffer.from(data as Uint8Array);
  const name = filenameOf(block).replace(/"/g, "'");
  return { type: "text", text: `<attached_file name="${name}" type="${String(block.mimeType)}">\n${bytes.toString("utf8")}\n</attached_file>` };
}

/** The same message in a form every provider converts (the stored message is left as sent). */
export function forProvider(message: BaseMessage): BaseMessage {
  if (message.type !== "human" || typeof message.content === "string") return message;
  const blocks = message.content as Block[];
  if (!blocks.some(isStandardDataBlock)) return message;
  const content = blocks.map((b) =>
    isStandardDataBlock(b) && b.type === "file" && "data" in b && TEXT_LIKE.test(String(b.mimeType ?? "")) ? textFileAsText(b) : b,
  );
  return new HumanMessage({
    id: message.id,
    name: message.name,
    content: content as ContentBlock.Standard[],
    additional_kwargs: message.additional_kwargs,
    // ChatOpenAI converts standard blocks only on messages marked v1; unmarked they would be
    // sent verbatim and refused. Anthropic's converter reads them either way.
    response_metadata: { ...message.response_metadata, output_version: "v1" },
  });
}

/**
 * Hands attachments to a real model in a shape its provider package converts to the wire format.
 * The offline model reads the stored blocks as they are (it names the files).
 */
export function createAttachmentDeliveryMiddleware() {
  return createMiddleware({
    name: "AttachmentDelivery",
    wrapModelCall: (request, handler) =>
      request.model instanceof OfflineChatModel ? handler(request) : handler({ ...request, messages: request.messages.map(forProvider) }),
  });
}
