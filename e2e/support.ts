import { test as base, expect } from "@playwright/test";
import { Client } from "@langchain/langgraph-sdk";
import { ChatPage } from "./pages/ChatPage";
import { Sidebar } from "./pages/Sidebar";

export { fallbackTitle } from "../lib/title";

/** An SDK client for seeding and checks (no retries: a failure should show). */
export function apiClient(): Client {
  return new Client({ apiUrl: `${process.env.E2E_BASE_URL}/api/langgraph`, callerOptions: { maxRetries: 0 } });
}

/**
 * Takes every run slot of the server (MAX_CONCURRENT_RUNS, the default here) with runs on
 * conversations of their own, so a run made next waits as `pending`. Returns what frees them.
 */
export async function takeAllRunSlots(slots: number): Promise<() => Promise<void>> {
  const client = apiClient();
  const busy = await Promise.all(
    Array.from({ length: slots }, async (_, i) => {
      const t = await client.threads.create();
      const run = await client.runs.create(t.thread_id, "agent", { input: { messages: [{ type: "human", content: `Keeping slot ${i} busy with a question long enough for a long answer` }] } });
      return { threadId: t.thread_id, runId: run.run_id };
    }),
  );
  return async () => {
    await Promise.all(busy.map((b) => client.runs.cancel(b.threadId, b.runId, true)));
  };
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

export { expect };
