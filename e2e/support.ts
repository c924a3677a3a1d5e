import { test as base, expect } from "@playwright/test";
import { Client } from "@langchain/langgraph-sdk";
import { ChatPage } from "./pages/ChatPage";
import { Sidebar } from "./pages/Sidebar";

export { fallbackTitle } from "../lib/title";

/** An SDK client for seeding and checks (no retries: a failure should show). */
export function apiClient(): Client {
  return new Client({ apiUrl: `${process.env.E2E_BASE_URL}/api/langgraph`, callerOptions: { maxRetries: 0 } });
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
