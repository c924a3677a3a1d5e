import { z } from "zod";

export type TitleConfig = {
  enabled: boolean;
  max_words: number;
  max_chars: number;
  model_name: string | null;
  prompt_template: string;
  instant: boolean;
};

export const MAX_WORDS_BOUNDS = { min: 1, max: 20 } as const;
export const MAX_CHARS_BOUNDS = { min: 10, max: 200 } as const;

// Our own wording; the three placeholders match DeerFlow's so existing templates keep working.
export const DEFAULT_TITLE_PROMPT = `Write a concise title of at most {max_words} words for the conversation below.

User's first message:
{user_msg}

Assistant's first reply:
{assistant_msg}

Use the language of the user's message. Output only the title itself: no quotation marks, no "Title:" label and no punctuation at the end.`;

const REQUIRED_PLACEHOLDER = "{user_msg}";

export const TitleConfigSchema = z.object({
  enabled: z.boolean().default(true),
  max_words: z.number().int().min(MAX_WORDS_BOUNDS.min).max(MAX_WORDS_BOUNDS.max).default(6),
  max_chars: z.number().int().min(MAX_CHARS_BOUNDS.min).max(MAX_CHARS_BOUNDS.max).default(60),
  model_name: z.string().min(1).nullable().default(null),
  prompt_template: z
    .string()
    .refine((t) => t.includes(REQUIRED_PLACEHOLDER), { message: `must contain ${REQUIRED_PLACEHOLDER}` })
    .default(DEFAULT_TITLE_PROMPT),
  instant: z.boolean().default(true),
});

// Fails to compile if the schema and the contract type drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesContract: Same<z.output<typeof TitleConfigSchema>, TitleConfig> = true;
void schemaMatchesContract;

export const DEFAULT_TITLE_CONFIG: Readonly<TitleConfig> = Object.freeze(TitleConfigSchema.parse({}));

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

export function loadTitleConfig(env: Env): TitleConfig {
  const template = read(env, "TITLE_PROMPT_TEMPLATE");
  if (template !== undefined && !template.includes(REQUIRED_PLACEHOLDER)) {
    throw new TitleConfigError(`TITLE_PROMPT_TEMPLATE must contain the ${REQUIRED_PLACEHOLDER} placeholder`);
  }
  const d = DEFAULT_TITLE_CONFIG;
  const config: TitleConfig = {
    enabled: readBool(env, "TITLE_ENABLED", d.enabled),
    max_words: readInt(env, "TITLE_MAX_WORDS", MAX_WORDS_BOUNDS, d.max_words),
    max_chars: readInt(env, "TITLE_MAX_CHARS", MAX_CHARS_BOUNDS, d.max_chars),
    model_name: read(env, "TITLE_MODEL")?.trim() ?? null,
    prompt_template: template ?? d.prompt_template,
    instant: readBool(env, "TITLE_INSTANT", d.instant),
  };
  const parsed = TitleConfigSchema.safeParse(config);
  // Unreachable while the readers above mirror the schema; kept so a future field cannot slip through unchecked.
  if (!parsed.success) throw new TitleConfigError(`Invalid title config: ${parsed.error.message}`);
  return parsed.data;
}
