"use client";
import { useEffect, useRef } from "react";
import type { ThreadListModel } from "@/lib/client/types";

/**
 * Tells screen readers, politely, when a conversation gets or changes its title (a new
 * conversation's instant title, the model's name, a rename, another tab's change). Rows merely
 * scrolled into the list by paging are not announced.
 */
export function TitleAnnouncer({ model }: { model: ThreadListModel }) {
  const regionRef = useRef<HTMLDivElement>(null);
  const seen = useRef<Map<string, string | null> | null>(null);

  useEffect(() => {
    const before = seen.current;
    seen.current = new Map(model.rows.map((r) => [r.id, r.title]));
    if (!before || !regionRef.current) return;
    let message: string | null = null;
    for (const row of model.rows) {
      if (!row.title) continue;
      const old = before.get(row.id);
      if (old === row.title) continue;
      if (old === undefined && !row.pending) continue;
      message = old ? `Conversation renamed to “${row.title}”` : `New conversation “${row.title}”`;
    }
    if (message) regionRef.current.textContent = message;
  }, [model]);

  return <div ref={regionRef} aria-live="polite" role="status" data-testid="title-announcer" className="sr-only" />;
}
