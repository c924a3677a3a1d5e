import { apiClient, expect, test } from "./support";

// A join of a run: GET /threads/:id/runs/:rid/stream, with query parameters.
const isJoin = (url: URL) => /\/runs\/[^/]+\/stream$/.test(url.pathname);
const refuse = { status: 403, contentType: "application/json", body: JSON.stringify({ detail: "Thread 1234 refused by policy xyz" }) };

test("Retry never sends a message twice when the conversation can't be read, and says so in words", async ({ page, chat }) => {
  const id = await chat.startConversation("Tell me about comets");
  await chat.waitForAnswerToFinish();
  await page.route("**/runs/stream", (route) => route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ detail: `Thread ${id} is busy with run 42` }) }));
  await chat.send("And asteroids?");
  await expect(chat.error).toContainText("busy with another answer");
  await expect(chat.error).not.toContainText(id);

  const sends: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/runs/stream")) sends.push(r.url());
  });
  await page.route(`**/threads/${id}/state`, (route) => route.fulfill(refuse));
  await chat.retryButton.click();
  await expect(chat.error).toContainText("Couldn't check whether your message arrived");
  expect(sends).toEqual([]);

  await page.unroute(`**/threads/${id}/state`);
  await page.unroute("**/runs/stream");
  await chat.retryButton.click();
  await chat.waitForAnswers(2);
  await expect(chat.error).toHaveCount(0);
  const state = await apiClient().threads.getState<{ messages: { type: string; content: string }[] }>(id);
  expect(state.values.messages.filter((m) => m.type === "human").map((m) => m.content)).toEqual(["Tell me about comets", "And asteroids?"]);
});

test("a failed delete brings the row back with an error that can be retried", async ({ page, chat, sidebar }) => {
  const id = await chat.startConversation("Soon to be deleted");
  await chat.waitForAnswerToFinish();
  await chat.openNew();
  await page.route(`**/threads/${id}`, (route) => (route.request().method() === "DELETE" ? route.fulfill(refuse) : route.fallback()));
  await sidebar.menuItem(id, "menu-delete");
  await expect(sidebar.row(id)).toHaveCount(0);
  const failure = page.getByText("Couldn't delete the conversation.");
  await expect(failure).toBeVisible({ timeout: 15_000 });
  await expect(failure).not.toContainText("1234");
  await expect(sidebar.row(id)).toBeVisible();

  await page.unroute(`**/threads/${id}`);
  await page.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(sidebar.row(id)).toHaveCount(0);
  await expect.poll(async () => apiClient().threads.get(id).then(() => "there", () => "gone")).toBe("gone");
});

test("a background answer that can't be followed says so and can be followed again", async ({ page, chat, sidebar }) => {
  await page.route(isJoin, (route) => (route.request().method() === "GET" ? route.fulfill(refuse) : route.fallback()));
  const id = await chat.startConversation("Write a long story about a lighthouse keeper");
  await expect(chat.stopButton).toBeVisible();
  await page.getByTestId("new-chat").first().click();
  const failure = page.getByText("Lost track of an answer being written in another conversation.");
  await expect(failure).toBeVisible();

  await page.unroute(isJoin);
  const joins: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "GET" && r.url().includes(`/threads/${id}/runs/`) && isJoin(new URL(r.url()))) joins.push(r.url());
  });
  await page.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(failure).toBeHidden();
  await expect.poll(() => joins.length).toBe(1);
  await expect(sidebar.row(id)).toBeVisible();
});

test("a list that fails to load says so and loads on Retry", async ({ page, chat, sidebar }) => {
  await chat.startConversation("Searchable zebra facts");
  await chat.waitForAnswerToFinish();
  await page.route("**/threads/search", (route) => route.fulfill(refuse));
  await sidebar.search.fill("zebra");
  await expect(sidebar.root.getByRole("alert")).toContainText("Couldn't load conversations");
  await page.unroute("**/threads/search");
  await sidebar.root.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(sidebar.rows.first()).toContainText("Searchable zebra facts");
});

test("rejoining an answer after a reload can fail visibly and be retried", async ({ page, chat }) => {
  // Joins are refused from the start (a send is a POST, not a join), so the reload can follow
  // the send at once, well within the answer's few seconds.
  await page.route(isJoin, (route) => (route.request().method() === "GET" ? route.fulfill(refuse) : route.fallback()));
  await chat.openNew();
  // The reload must come after the server has the run (its stream answers once the run is stored):
  // the Stop button shows before that, and a reload then would cancel the send, leaving no run to rejoin.
  const stored = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/runs/stream"));
  await chat.send("Describe the water cycle step by step, with examples from everyday life");
  await expect(chat.stopButton).toBeVisible();
  expect((await stored).status()).toBe(200);
  await page.reload();
  await expect(chat.error).toContainText("The server refused the request.");
  await expect(chat.error).not.toContainText("1234");
  await page.unroute(isJoin);
  await chat.retryButton.click();
  await chat.waitForAnswerToFinish();
  await expect(chat.error).toHaveCount(0);
  await expect(chat.assistantMessages.last()).toContainText("restart the server.");
});
