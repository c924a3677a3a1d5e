/** Says the built-in offline model answers, and where a real one is set. */
export function OfflineBanner({ onLangGraphServer = false }: { onLangGraphServer?: boolean }) {
  return (
    <div
      role="note"
      data-testid="offline-banner"
      className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-200"
    >
      <strong className="font-semibold">Offline demo model.</strong> Answers are canned. To use a real model, set{" "}
      <code className="font-mono">OPENAI_API_KEY</code> (or <code className="font-mono">OPENAI_BASE_URL</code> for any
      OpenAI-compatible server) and optionally <code className="font-mono">CHAT_MODEL</code>
      {onLangGraphServer ? " on the LangGraph server this app runs on, then restart it." : ", then restart the server."}
    </div>
  );
}
