import { bench, describe } from "vitest";
import { buildThreadListModel } from "@/lib/client/thread-list-model";
import type { ThreadPage } from "@/lib/client/types";

// The sidebar's list model is rebuilt whenever a page arrives while scrolling: at 10,000 loaded
// rows (200 pages of 50) that rebuild runs on the main thread between two frames.
const NOW = Date.parse("2026-12-01T12:00:00Z");
const pages: ThreadPage[] = Array.from({ length: 200 }, (_, p) => ({
  fetchedAt: NOW,
  nextOffset: null,
  asOf: "",
  rows: Array.from({ length: 50 }, (_, i) => {
    const n = p * 50 + i;
    return {
      id: `t-${String(n).padStart(6, "0")}`,
      createdAt: new Date(NOW - n * 600_000).toISOString(),
      activityAt: new Date(NOW - n * 600_000).toISOString(),
      status: "idle" as const,
      starred: n % 400 === 0,
      title: { title: `Conversation ${n}`, source: { kind: "fallback" as const } },
    };
  }),
}));

describe("list model of 10,000 rows (200 pages)", () => {
  bench("buildThreadListModel", () => {
    buildThreadListModel(pages, {}, NOW, { tzOffsetMin: 60 });
  });
});
