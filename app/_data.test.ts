import { afterEach, describe, expect, it, vi } from "vitest";
import { fallbackTitle } from "@/lib/title";
import { loadTitleConfig } from "@/lib/title/config";
import { loadAppInfo } from "./_data";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("loadAppInfo", () => {
  it("gives the browser every setting its instant title needs to match the server's", () => {
    const text = "Please suggest a relaxing weekend itinerary to share with my family in Kyoto";
    for (const cut of ["grapheme", "word"]) {
      vi.stubEnv("TITLE_FALLBACK_CUT", cut);
      vi.stubEnv("TITLE_MAX_CHARS", "40");
      const browser = loadAppInfo().title;
      expect(browser.fallback_cut).toBe(cut);
      expect(fallbackTitle(text, browser)).toBe(fallbackTitle(text, loadTitleConfig(process.env)));
    }
  });
});
