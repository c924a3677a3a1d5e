import AxeBuilder from "@axe-core/playwright";
import { apiClient, expect, test } from "./support";

type Msg = { type: string; content: string; response_metadata?: Record<string, unknown> };

test("Stop keeps the text written so far, marked stopped, after reload too; the next message follows it", async ({ page, chat }) => {
  const id = await chat.startConversation("Explain how tides work, in detail please");
  const seen = await chat.waitForAnswerWords(6);
  await chat.stopButton.click();
  await expect(chat.sendButton).toBeVisible();
  await expect(chat.stoppedMarks).toHaveCount(1);
  await expect(chat.assistantMessages).toHaveCount(1);

  const state = await apiClient().threads.getState<{ messages: Msg[] }>(id);
  const kept = state.values.messages.at(-1)!;
  expect(kept.type).toBe("ai");
  expect(kept.response_metadata?.threadline_stopped).toBe(true);
  expect(kept.content.startsWith(seen.trim().split(/\s+/).slice(0, 6).join(" "))).toBe(true);
  expect(kept.content).not.toMatch(/restart the server\.$/); // cut short, not the whole reply
  await expect(chat.assistantMessages.first()).toContainText(kept.content.trim());

  await page.reload();
  await expect(chat.assistantMessages).toHaveCount(1);
  await expect(chat.assistantMessages.first()).toContainText(kept.content.trim());
  await expect(chat.stoppedMarks).toHaveCount(1);

  // A conversation with messages and a stopped answer reads well in light and dark (axe: contrast and the rest).
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${colorScheme}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(serious).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });

  await chat.send("Go on");
  await chat.waitForAnswerToFinish();
  await expect(chat.assistantMessages).toHaveCount(2);
  await expect(chat.userMessages).toHaveText(["Explain how tides work, in detail please", "Go on"]);
  await expect(chat.stoppedMarks).toHaveCount(1);
  await expect(chat.assistantMessages.first()).toHaveAttribute("data-stopped", "true");
  await expect(chat.assistantMessages.last()).toContainText("restart the server.");
});
