import { apiClient, expect, keptStoppedAnswer, test, type KeptMessage } from "../support";

// Only under playwright.langgraph.config.ts. A LangGraph server keeps nothing of an answer cut off
// by a cancel; the web app writes back what the reader saw (lib/client/use-stop.ts), marked
// stopped as Threadline's own server marks it, so Stop keeps the text here too.
type Msg = KeptMessage;

test("Stop keeps the text written so far on the LangGraph server, marked stopped, after reload too; the next message follows it", async ({ page, chat }) => {
  const { id, seen } = await chat.stopFirstAnswer("Explain how tides work, in detail please");
  const kept = await keptStoppedAnswer(id, seen);
  expect((await apiClient().threads.getState<{ messages: Msg[] }>(id)).values.messages.map((m) => m.type)).toEqual(["human", "ai"]);
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
