import type { TitleConfig } from "./config";

/**
 * Every title setting's default. The schema in config.ts takes its defaults from here; they live
 * apart from it because the browser needs them (the instant title) and should not load zod for them.
 */
export const DEFAULT_TITLE_CONFIG: Readonly<TitleConfig> = Object.freeze({
  enabled: true,
  max_words: 6,
  max_chars: 60,
  model_name: null,
  prompt_template: null,
  instant: true,
  timeout_ms: 5000,
  max_output_tokens: 64,
  cadence: "first-prompt",
  fallback_cut: "word",
});
