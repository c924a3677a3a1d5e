"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { seedThreadRow } from "@/lib/client/use-thread-list";
import type { ThreadPage } from "@/lib/client/types";

/**
 * Puts the open conversation's server-rendered registry row into the query cache before the chat
 * renders, so its header and its sidebar row (even beyond the loaded pages) read the same row.
 */
export function SeedThreadRow({ threadId, page }: { threadId: string; page: ThreadPage | null }) {
  const qc = useQueryClient();
  useState(() => seedThreadRow(qc, threadId, page));
  return null;
}
