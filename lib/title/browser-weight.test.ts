import { expect, it, vi } from "vitest";

// The browser imports the engine through its index; zod (config.ts's schema) is the server's.
vi.mock("zod", () => {
  throw new Error("zod was loaded");
});

it("the engine's index loads without zod, defaults included; config.ts does need it", async () => {
  const title = await import("./index");
  expect(title.DEFAULT_TITLE_CONFIG.max_words).toBe(6);
  expect(title.fallbackTitle("Plan a trip to Lisbon in May")).toBeTruthy();
  await expect(import("./config")).rejects.toThrow();
});
