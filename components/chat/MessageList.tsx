"use client";
import { useEffect, useRef } from "react";
import type { ChatLine } from "@/lib/client/chat-messages";
import { MessageAttachments } from "./AttachmentChips";
import { Markdown } from "./Markdown";

interface MessageListProps {
  lines: ChatLine[];
  streaming: boolean;
  children?: React.ReactNode;
}

/** The conversation, kept scrolled to the bottom while the reader is there. */
export function MessageList({ lines, streaming, children }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const lastText = lines.length ? lines[lines.length - 1].text : "";

  useEffect(() => {
    const el = scrollRef.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [lines.length, lastText, streaming]);

  const waitingForFirstToken = streaming && (lines.length === 0 || lines[lines.length - 1].role === "user");
  return (
    <div
      ref={scrollRef}
      data-testid="message-list"
      onScroll={(e) => {
        const el = e.currentTarget;
        stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
      }}
      className="min-h-0 flex-1 overflow-y-auto"
    >
      <div className="mx-auto flex max-w-3xl flex-col gap-5 px-4 py-6" aria-live="off">
        {lines.map((line, i) =>
          line.role === "user" ? (
            <div key={line.key} data-testid="message-user" className="flex flex-col items-end gap-2">
              {line.attachments ? <MessageAttachments attachments={line.attachments} /> : null}
              {line.text || !line.attachments ? (
                <p className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl bg-neutral-100 px-4 py-2.5 dark:bg-neutral-800">
                  {line.text}
                </p>
              ) : null}
            </div>
          ) : (
            <div
              key={line.key}
              data-testid="message-assistant"
              data-streaming={streaming && i === lines.length - 1 ? "true" : undefined}
              data-stopped={line.stopped ? "true" : undefined}
              className="min-w-0"
            >
              <Markdown text={line.text} />
              {line.stopped ? (
                <p data-testid="stopped-mark" className="mt-1 text-xs text-neutral-600 dark:text-neutral-400">
                  Stopped
                </p>
              ) : null}
            </div>
          ),
        )}
        {waitingForFirstToken ? (
          <div data-testid="assistant-typing" className="flex gap-1 py-2" aria-label="Assistant is typing">
            <span className="size-2 animate-bounce rounded-full bg-neutral-400 [animation-delay:-0.3s]" />
            <span className="size-2 animate-bounce rounded-full bg-neutral-400 [animation-delay:-0.15s]" />
            <span className="size-2 animate-bounce rounded-full bg-neutral-400" />
          </div>
        ) : null}
        {children}
      </div>
    </div>
  );
}
