"use client";
import { FileText, Paperclip, X } from "lucide-react";
import { useRef } from "react";
import { ACCEPT_ATTRIBUTE, ACCEPTED_FILES_HINT, formatBytes, MAX_FILE_BYTES, type ComposerAttachment } from "@/lib/client/attachments";
import type { AttachmentView } from "@/lib/client/message-attachments";

const CHIP = "flex max-w-64 items-center gap-1.5 rounded-lg border border-neutral-200 bg-neutral-50 px-2 py-1 text-xs dark:border-neutral-700 dark:bg-neutral-800";

function FileLabel({ name, size }: { name: string; size: string | null }) {
  return (
    <>
      <FileText className="size-4 shrink-0 text-neutral-500" aria-hidden />
      <span className="truncate font-medium" data-testid="attachment-name">
        {name}
      </span>
      {size ? <span className="shrink-0 text-neutral-500">{size}</span> : null}
    </>
  );
}

/** The files a drop or paste carries (a paste of plain text carries none). */
export function droppedFiles(transfer: DataTransfer | null): File[] {
  return transfer ? Array.from(transfer.files) : [];
}

/** Opens the file picker; the input is cleared after each pick so the same file can be picked again. */
export function AttachButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const hint = `Attach files: ${ACCEPTED_FILES_HINT}, up to ${formatBytes(MAX_FILE_BYTES)} each`;
  return (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={ACCEPT_ATTRIBUTE}
        data-testid="attach-input"
        onChange={(e) => {
          onFiles(Array.from(e.currentTarget.files ?? []));
          e.currentTarget.value = "";
        }}
      />
      <button
        type="button"
        data-testid="attach-button"
        aria-label="Attach files"
        title={hint}
        onClick={() => input.current?.click()}
        className="grid size-11 shrink-0 place-items-center rounded-full md:size-9 text-neutral-600 hover:bg-neutral-100 dark:text-neutral-300 dark:hover:bg-neutral-800"
      >
        <Paperclip className="size-4" aria-hidden />
      </button>
    </>
  );
}

/** The files waiting in the composer, each with a remove button. */
export function ComposerAttachmentChips({ attachments, onRemove }: { attachments: ComposerAttachment[]; onRemove: (id: string) => void }) {
  if (attachments.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2 px-2 pt-1" aria-label="Attached files" data-testid="composer-attachments">
      {attachments.map((a) => (
        <li key={a.id} className={CHIP} data-testid="composer-attachment">
          <FileLabel name={a.name} size={formatBytes(a.size)} />
          <button
            type="button"
            onClick={() => onRemove(a.id)}
            aria-label={`Remove ${a.name}`}
            data-testid="remove-attachment"
            className="grid size-11 -my-3 -mr-2 shrink-0 place-items-center rounded md:size-5 md:my-0 md:mr-0 text-neutral-500 hover:bg-neutral-200 hover:text-neutral-900 dark:hover:bg-neutral-700 dark:hover:text-neutral-100"
          >
            <X className="size-3.5" aria-hidden />
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A sent message's files: images as thumbnails from their inline data, others as chips. */
export function MessageAttachments({ attachments }: { attachments: AttachmentView[] }) {
  return (
    <ul className="flex max-w-[85%] flex-wrap justify-end gap-2" aria-label="Attached files" data-testid="message-attachments">
      {attachments.map((a) =>
        a.imageSrc ? (
          <li key={a.key} data-testid="message-attachment" data-kind="image" title={a.sizeLabel ? `${a.name} · ${a.sizeLabel}` : a.name}>
            {/* A data: URL from the message itself: nothing for the image optimizer to fetch. */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={a.imageSrc} alt={a.name} className="max-h-40 min-h-8 max-w-60 min-w-8 rounded-lg border border-neutral-200 object-contain dark:border-neutral-700" />
          </li>
        ) : (
          <li key={a.key} className={CHIP} data-testid="message-attachment" data-kind={a.kind}>
            <FileLabel name={a.name} size={a.sizeLabel} />
          </li>
        ),
      )}
    </ul>
  );
}
