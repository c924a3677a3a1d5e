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

  await chat.send("Go on");
  await chat.waitForAnswerToFinish();
  await expect(chat.assistantMessages).toHaveCount(2);
  await expect(chat.userMessages).toHaveText(["Explain how tides work, in detail please", "Go on"]);
  await expect(chat.stoppedMarks).toHaveCount(1);
  await expect(chat.assistantMessages.first()).toHaveAttribute("data-stopped", "true");
  await expect(chat.assistantMessages.last()).toContainText("restart the server.");
});
