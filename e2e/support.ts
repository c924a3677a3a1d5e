import { test as base, expect, type Page } from "@playwright/test";
import { Client } from "@langchain/langgraph-sdk";
import { ChatPage } from "./pages/ChatPage";
import { Sidebar } from "./pages/Sidebar";
import { DEFAULT_RUN_LIMITS } from "../lib/server/runs/run-limits";

export { fallbackTitle } from "../lib/title";

/** An SDK client for seeding and checks (no retries: a failure should show). */
export function apiClient(): Client {
  return new Client({ apiUrl: `${process.env.E2E_BASE_URL}/api/langgraph`, callerOptions: { maxRetries: 0 } });
}

/**
 * Takes every run slot of the e2e server (MAX_CONCURRENT_RUNS) with runs on conversations of
 * their own, so a run made next waits as `pending` (for about 4 s: the offline answer's length).
 * Returns what frees them.
 */
export async function takeAllRunSlots(): Promise<() => Promise<void>> {
  const client = apiClient();
  const slots = Number(process.env.MAX_CONCURRENT_RUNS) || DEFAULT_RUN_LIMITS.maxConcurrentRuns;
  const made = await Promise.allSettled(
    Array.from({ length: slots }, async (_, i) => {
      const t = await client.threads.create();
      const run = await client.runs.create(t.thread_id, "agent", { input: { messages: [{ type: "human", content: `Keeping slot ${i} busy with a question long enough to make the offline answer long` }] } });
      return { threadId: t.thread_id, runId: run.run_id };
    }),
  );
  const busy = made.flatMap((m) => (m.status === "fulfilled" ? [m.value] : []));
  const free = async () => {
    await Promise.all(busy.map((b) => client.runs.cancel(b.threadId, b.runId, true)));
  };
  const failed = made.find((m) => m.status === "rejected");
  if (failed) {
    await free();
    throw failed.reason;
  }
  return free;
}

type Fixtures = { chat: ChatPage; sidebar: Sidebar; dialogs: string[]; pageHealth: void };

/**
 * Page objects, a record of any JS dialog (none should ever open), and a health check on every
 * test: no uncaught page error and no React hydration mismatch (a server/client render that
 * disagrees is exactly the "flash" this app must not have).
 */
export const test = base.extend<Fixtures>({
  pageHealth: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error" && /hydrat|did not match/i.test(m.text())) problems.push(`console: ${m.text()}`);
      });
      await use();
      expect(problems, "page errors or hydration mismatches").toEqual([]);
    },
    { auto: true },
  ],
  dialogs: async ({ page }, use) => {
    const seen: string[] = [];
    page.on("dialog", (d) => {
      seen.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    await use(seen);
  },
  chat: async ({ page }, use) => use(new ChatPage(page)),
  sidebar: async ({ page }, use) => use(new Sidebar(page)),
});

/** The keys IndexedDB holds for kept files (lib/client/draft-files.ts), read in the page. */
export const keptFileKeys = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open("threadline");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("draft-files")) return resolve([]);
          const req = db.transaction("draft-files").objectStore("draft-files").getAllKeys();
          req.onsuccess = () => resolve(req.result.map(String).filter((k) => k !== "index"));
          req.onerror = () => reject(req.error);
        };
      }),
  );

/** A stopped answer as the server holds it: the thread's last message, an assistant's, marked stopped. */
export type KeptMessage = { type: string; id?: string; content: string; response_metadata?: Record<string, unknown> };

/**
 * The answer the server kept for a Stop after `seen` was on screen: the thread's last message,
 * marked stopped, starting with what was seen and cut short of the offline model's whole reply.
 */
export async function keptStoppedAnswer(threadId: string, seen: string): Promise<KeptMessage> {
  const state = await apiClient().threads.getState<{ messages: KeptMessage[] }>(threadId);
  const kept = state.values.messages.at(-1)!;
  expect(kept.type).toBe("ai");
  expect(kept.response_metadata?.threadline_stopped).toBe(true);
  expect(kept.content.startsWith(seen.trim().split(/\s+/).slice(0, 6).join(" "))).toBe(true);
  expect(kept.content).not.toMatch(/restart the server\.$/); // cut short, not the whole reply
  return kept;
}

export { expect };
