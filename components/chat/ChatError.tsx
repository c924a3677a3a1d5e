interface ChatErrorProps {
  message: string;
  onRetry: (() => void) | null;
}

/** A failed run, shown in the conversation where it happened, with a retry. */
export function ChatError({ message, onRetry }: ChatErrorProps) {
  return (
    <div
      role="alert"
      data-testid="chat-error"
      className="flex items-start justify-between gap-3 rounded-lg border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200"
    >
      <span className="min-w-0 break-words">
        <strong className="font-semibold">The answer failed.</strong> {message}
      </span>
      {onRetry ? (
        <button
          type="button"
          data-testid="retry-button"
          onClick={onRetry}
          className="shrink-0 rounded border border-red-400 px-2 py-0.5 font-medium hover:bg-red-100 dark:border-red-700 dark:hover:bg-red-900"
        >
          Retry
        </button>
      ) : null}
    </div>
  );
}
