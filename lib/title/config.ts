import { z } from "zod";
import { DEFAULT_TITLE_CONFIG as DEFAULTS } from "./defaults";

export type TitleConfig = {
  enabled: boolean;
  max_words: number;
  max_chars: number;
  model_name: string | null;
  /** null = the built-in prompt (system instructions + the conversation as JSON data). */
  prompt_template: string | null;
  instant: boolean;
  timeout_ms: number;
  max_output_tokens: number;
  cadence: TitleCadence;
  fallback_cut: FallbackCut;
};

/** When a model title is due: after the first prompt only, or re-made after every prompt. */
export const TITLE_CADENCES = ["first-prompt", "all-prompts"] as const;
export type TitleCadence = (typeof TITLE_CADENCES)[number];
/** "word" avoids ending a fallback title mid-word; "grapheme" is DeerFlow's exact cut. */
export const FALLBACK_CUTS = ["word", "grapheme"] as const;
export type FallbackCut = (typeof FALLBACK_CUTS)[number];

export const MAX_WORDS_BOUNDS = { min: 1, max: 20 } as const;
export const MAX_CHARS_BOUNDS = { min: 10, max: 200 } as const;
export const TIMEOUT_MS_BOUNDS = { min: 100, max: 60000 } as const;
export const MAX_OUTPUT_TOKENS_BOUNDS = { min: 8, max: 1024 } as const;

const REQUIRED_PLACEHOLDER = "{user_msg}";

export const TitleConfigSchema = z.object({
  enabled: z.boolean().default(DEFAULTS.enabled),
  max_words: z.number().int().min(MAX_WORDS_BOUNDS.min).max(MAX_WORDS_BOUNDS.max).default(DEFAULTS.max_words),
  max_chars: z.number().int().min(MAX_CHARS_BOUNDS.min).max(MAX_CHARS_BOUNDS.max).default(DEFAULTS.max_chars),
  model_name: z.string().min(1).nullable().default(DEFAULTS.model_name),
  prompt_template: z
    .string()
    .refine((t) => t.includes(REQUIRED_PLACEHOLDER), { message: `must contain ${REQUIRED_PLACEHOLDER}` })
    .nullable()
    .default(DEFAULTS.prompt_template),
  instant: z.boolean().default(DEFAULTS.instant),
  timeout_ms: z.number().int().min(TIMEOUT_MS_BOUNDS.min).max(TIMEOUT_MS_BOUNDS.max).default(DEFAULTS.timeout_ms),
  max_output_tokens: z.number().int().min(MAX_OUTPUT_TOKENS_BOUNDS.min).max(MAX_OUTPUT_TOKENS_BOUNDS.max).default(DEFAULTS.max_output_tokens),
  cadence: z.enum(TITLE_CADENCES).default(DEFAULTS.cadence),
  fallback_cut: z.enum(FALLBACK_CUTS).default(DEFAULTS.fallback_cut),
});

// Fails to compile if the schema and the contract type drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesContract: Same<z.output<typeof TitleConfigSchema>, TitleConfig> = true;
void schemaMatchesContract;

export { DEFAULT_TITLE_CONFIG } from "./defaults";

export class TitleConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TitleConfigError";
  }
}

type Env = Record<string, string | undefined>;

// Whitespace-only counts as unset: a stray `TITLE_MODEL= ` in a .env file should not mean "model named ' '".
function read(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === "" ? undefined : raw;
}

const TRUE = new Set(["true", "1", "yes"]);
const FALSE = new Set(["false", "0", "no"]);

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const v = raw.trim().toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new TitleConfigError(`${name} must be one of true/false/1/0/yes/no (got ${JSON.stringify(raw)})`);
}

function readInt(env: Env, name: string, bounds: { min: number; max: number }, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  // Number("1e1") and parseInt("6abc") are both too forgiving for a config value.
  const n = /^[+-]?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < bounds.min || n > bounds.max) {
    throw new TitleConfigError(
      `${name} must be an integer between ${bounds.min} and ${bounds.max} (got ${JSON.stringify(raw)})`,
    );
  }
  return n;
}

function readChoice<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const v = raw.trim().toLowerCase();
  const hit = choices.find((c) => c === v);
  if (hit === undefined) throw new TitleConfigError(`${name} must be one of ${choices.join("/")} (got ${JSON.stringify(raw)})`);
  return hit;
}

export function loadTitleConfig(env: Env): TitleConfig {
  const template = read(env, "TITLE_PROMPT_TEMPLATE");
  if (template !== undefined && !template.includes(REQUIRED_PLACEHOLDER)) {
    throw new TitleConfigError(`TITLE_PROMPT_TEMPLATE must contain the ${REQUIRED_PLACEHOLDER} placeholder`);
  }
  const d = DEFAULTS;
  const config: TitleConfig = {
    enabled: readBool(env, "TITLE_ENABLED", d.enabled),
    max_words: readInt(env, "TITLE_MAX_WORDS", MAX_WORDS_BOUNDS, d.max_words),
    max_chars: readInt(env, "TITLE_MAX_CHARS", MAX_CHARS_BOUNDS, d.max_chars),
    model_name: read(env, "TITLE_MODEL")?.trim() ?? null,
    prompt_template: template ?? d.prompt_template,
    instant: readBool(env, "TITLE_INSTANT", d.instant),
    timeout_ms: readInt(env, "TITLE_TIMEOUT_MS", TIMEOUT_MS_BOUNDS, d.timeout_ms),
    max_output_tokens: readInt(env, "TITLE_MAX_TOKENS", MAX_OUTPUT_TOKENS_BOUNDS, d.max_output_tokens),
    cadence: readChoice(env, "TITLE_CADENCE", TITLE_CADENCES, d.cadence),
    fallback_cut: readChoice(env, "TITLE_FALLBACK_CUT", FALLBACK_CUTS, d.fallback_cut),
  };
  const parsed = TitleConfigSchema.safeParse(config);
  // Unreachable while the readers above mirror the schema; kept so a future field cannot slip through unchecked.
  if (!parsed.success) throw new TitleConfigError(`Invalid title config: ${parsed.error.message}`);
  return parsed.data;
}
