import { apiClient, expect, test } from "../support";

// Only under playwright.langgraph.config.ts. A LangGraph server keeps nothing of an answer cut off
// by a cancel; the web app writes back what the reader saw (lib/client/use-stop.ts), marked
// stopped as Threadline's own server marks it, so Stop keeps the text here too.
type Msg = { type: string; id?: string; content: string; response_metadata?: Record<string, unknown> };

test("Stop keeps the text written so far on the LangGraph server, marked stopped, after reload too; the next message follows it", async ({ page, chat }) => {
  const id = await chat.startConversation("Explain how tides work, in detail please");
  const seen = await chat.waitForAnswerWords(6);
  await chat.stopButton.click();
  await expect(chat.sendButton).toBeVisible();
  await expect(chat.stoppedMarks).toHaveCount(1);
  await expect(chat.assistantMessages).toHaveCount(1);

  const state = await apiClient().threads.getState<{ messages: Msg[] }>(id);
  expect(state.values.messages.map((m) => m.type)).toEqual(["human", "ai"]);
  const kept = state.values.messages[1];
  expect(kept.response_metadata?.threadline_stopped).toBe(true);
  expect(kept.content.startsWith(seen.trim().split(/\s+/).slice(0, 6).join(" "))).toBe(true);
  expect(kept.content).not.toMatch(/restart the server\.$/); // cut short, not the whole reply
  // The run was cancelled, not left to finish: the kept text stays as it was, nothing after it.
  await page.waitForTimeout(1_500);
  const later = (await apiClient().threads.getState<{ messages: Msg[] }>(id)).values.messages;
  expect(later).toHaveLength(2);
  expect(later[1]).toMatchObject({ id: kept.id, content: kept.content, response_metadata: { threadline_stopped: true } });

  await page.reload();
  await expect(chat.assistantMessages).toHaveCount(1);
  await expect(chat.assistantMessages.first()).toContainText(kept.content.trim());
  await expect(chat.stoppedMarks).toHaveCount(1);

  await chat.send("Go on");
  await chat.waitForAnswerToFinish();
  await expect(chat.assistantMessages).toHaveCount(2);
  await expect(chat.userMessages).toHaveText(["Explain how tides work, in detail please", "Go on"]);
  await expect(chat.stoppedMarks).toHaveCount(1);
  const after = (await apiClient().threads.getState<{ messages: Msg[] }>(id)).values.messages;
  expect(after.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
  expect(after[1].id).toBe(kept.id);
});
