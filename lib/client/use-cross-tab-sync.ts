"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { onTabMessage, type TabMessage } from "./cross-tab";
import { applyTabMessage } from "./live-titles";

/** Applies renames, new titles, stars, new threads and deletes made in other tabs. */
export function useCrossTabSync(onMessage?: (m: TabMessage) => void): void {
  const qc = useQueryClient();
  useEffect(
    () =>
      onTabMessage((m) => {
        applyTabMessage(qc, m);
        onMessage?.(m);
      }),
    [qc, onMessage],
  );
}
