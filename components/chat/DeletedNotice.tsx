"use client";
import { useShell } from "@/components/shell/shell-context";

/** Shown in place of the composer when the open conversation was deleted (in another tab, or as this tab left it). */
export function DeletedNotice({ how }: { how: "elsewhere" | "on-leaving" }) {
  const { startNewChat } = useShell();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-4">
      <div
        role="alert"
        data-testid="deleted-notice"
        className="flex items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
      >
        <span>{how === "elsewhere" ? "This conversation was deleted in another tab." : "This conversation was deleted."}</span>
        <button
          type="button"
          data-testid="deleted-notice-new-chat"
          onClick={startNewChat}
          className="shrink-0 rounded border border-amber-400 px-2 py-0.5 font-medium hover:bg-amber-100 dark:border-amber-700 dark:hover:bg-amber-900"
        >
          New conversation
        </button>
      </div>
    </div>
  );
}
