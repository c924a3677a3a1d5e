import { z } from "zod";

/**
 * Request bodies, as the SDK 1.15 sends them (snake_case). Optional fields accept null too:
 * other clients send explicit nulls where the SDK omits keys. Unknown keys are ignored.
 */

const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

/** Same rule as every id in a path (router's PATH_ID): a UUID, or 1-128 of [A-Za-z0-9_-]. */
export const threadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "thread_id must be a UUID or 1-128 letters, digits, '_' or '-'");
const idSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "must be a UUID or 1-128 letters, digits, '_' or '-'");

const MAX_KEYS = 64;
export const MAX_FILTER_KEYS = 32;
export const MAX_OFFSET = 1_000_000;
const keyCount = (max: number) => (r: Record<string, unknown>) => Object.keys(r).length <= max;
const record = z.record(z.string(), z.unknown()).refine(keyCount(MAX_KEYS), `at most ${MAX_KEYS} keys`);
/** Search filters: each key is a SQL condition, so there are few of them. */
const filter = z.record(z.string(), z.unknown()).refine(keyCount(MAX_FILTER_KEYS), `at most ${MAX_FILTER_KEYS} filter keys`);
/** Checkpoint metadata filters become SQLite JSON paths (`$.key`): identifiers only. */
const historyFilter = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "metadata filter keys must be identifiers (letters, digits, '_')"), z.unknown())
  .refine(keyCount(MAX_FILTER_KEYS), `at most ${MAX_FILTER_KEYS} filter keys`);
const offsetSchema = z.number().int().min(0).max(MAX_OFFSET);

export const THREAD_STATUSES = ["idle", "busy", "interrupted", "error"] as const;
export const RUN_STATUSES = ["pending", "running", "success", "error", "timeout", "interrupted"] as const;

export const checkpointSchema = z.object({
  checkpoint_id: opt(idSchema),
  // The agent has no subgraphs: any other namespace names nothing.
  checkpoint_ns: opt(z.literal("", { error: "checkpoint_ns must be empty (the agent has no subgraphs)" })),
  checkpoint_map: opt(record),
  thread_id: opt(idSchema),
});
export type CheckpointRef = { checkpoint_id?: string; checkpoint_ns?: string; checkpoint_map?: Record<string, unknown>; thread_id?: string };

/** The checkpoint a request targets: a full `checkpoint` object, or the bare `checkpoint_id` shorthand. */
export function checkpointOf(body: { checkpoint?: CheckpointRef; checkpoint_id?: string }): CheckpointRef | undefined {
  return body.checkpoint ?? (body.checkpoint_id ? { checkpoint_id: body.checkpoint_id } : undefined);
}

/** A thread's own metadata: `$`-keys are the search's operators (`$title_search`, `$as_of`), so no key may look like one. */
const threadMetadata = z
  .record(z.string().min(1, "metadata keys must not be empty").refine((k) => !k.startsWith("$"), "metadata keys starting with $ are reserved for search operators"), z.unknown())
  .refine(keyCount(MAX_KEYS), `at most ${MAX_KEYS} keys`);

export const threadCreateSchema = z.object({
  thread_id: opt(threadIdSchema),
  metadata: opt(threadMetadata),
  if_exists: opt(z.enum(["raise", "do_nothing"])),
  supersteps: opt(z.array(z.unknown()).max(0, "supersteps are not supported by this server")),
  ttl: opt(z.unknown()),
});

export const threadPatchSchema = z.object({ metadata: opt(threadMetadata), ttl: opt(z.unknown()) });

export const THREAD_FIELDS = ["thread_id", "created_at", "updated_at", "activity_at", "metadata", "config", "context", "status", "values", "interrupts"] as const;

export const threadSearchSchema = z.object({
  metadata: opt(filter),
  values: opt(filter),
  ids: opt(z.array(threadIdSchema).max(1000)),
  status: opt(z.enum(THREAD_STATUSES)),
  limit: opt(z.number().int().min(0).max(1000)),
  offset: opt(offsetSchema),
  sort_by: opt(z.enum(["thread_id", "status", "created_at", "updated_at", "activity_at"])),
  sort_order: opt(z.enum(["asc", "desc"])),
  select: opt(z.array(z.enum(THREAD_FIELDS)).min(1)),
  extract: opt(
    z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "extract keys must be identifiers"), z.string().min(1).max(200))
      .refine((r) => Object.keys(r).length <= 16, "at most 16 extract keys"),
  ),
});

export const threadCountSchema = z.object({
  metadata: opt(filter),
  values: opt(filter),
  status: opt(z.enum(THREAD_STATUSES)),
});

export const stateUpdateSchema = z.object({
  values: opt(record),
  as_node: opt(z.string().min(1).max(200)),
  checkpoint: opt(checkpointSchema),
  checkpoint_id: opt(idSchema),
});

export const stateCheckpointSchema = z.object({
  checkpoint: checkpointSchema,
  subgraphs: opt(z.boolean()),
  select: opt(z.array(z.string().max(200)).max(32)),
});

export const historySchema = z.object({
  limit: opt(z.number().int().min(1).max(1000)),
  // The SDK types `before` as a run Config (`{ configurable: { checkpoint_id } }`); a bare
  // checkpoint object or id is accepted too.
  before: opt(z.union([idSchema, z.object({ configurable: checkpointSchema }).transform((c) => c.configurable), checkpointSchema])),
  metadata: opt(historyFilter),
  checkpoint: opt(checkpointSchema),
  select: opt(z.array(z.string().max(200)).max(32)),
});

/** Modes we produce. "messages-tuple" is the graph's "messages" mode sent as event `messages`. */
export const PRODUCED_STREAM_MODES = ["values", "updates", "messages-tuple", "custom", "debug", "checkpoints", "tasks", "tools"] as const;
/** Accepted so a useStream listener never turns into a 422, but nothing is sent for them. */
const ACCEPTED_STREAM_MODES = [...PRODUCED_STREAM_MODES, "messages", "events"] as const;
export type StreamMode = (typeof ACCEPTED_STREAM_MODES)[number];
const streamModeSchema = z.enum(ACCEPTED_STREAM_MODES);
export const isStreamMode = (mode: string): mode is StreamMode => (ACCEPTED_STREAM_MODES as readonly string[]).includes(mode);

export const MULTITASK_STRATEGIES = ["reject", "enqueue", "interrupt", "rollback"] as const;
export type MultitaskStrategy = (typeof MULTITASK_STRATEGIES)[number];

export const runCreateSchema = z.object({
  assistant_id: z.string().min(1),
  input: opt(record),
  command: opt(
    z.object({
      resume: z.unknown().optional(),
      // Objects or [key, value] pairs; which keys a client may write is checked in run-rules.
      update: opt(z.union([record, z.array(z.tuple([z.string(), z.unknown()])).max(MAX_KEYS)])),
      // Node names only: a Send would hand a node arbitrary state.
      goto: opt(z.union([z.string().max(200), z.array(z.string().max(200)).max(16)])),
    }),
  ),
  config: opt(
    z.object({
      configurable: opt(record),
      tags: opt(z.array(z.string().max(200)).max(32)),
      recursion_limit: opt(z.number().int().min(1).max(10_000)),
      metadata: opt(record),
    }),
  ),
  context: opt(record),
  metadata: opt(record),
  stream_mode: opt(z.union([streamModeSchema, z.array(streamModeSchema)])),
  stream_subgraphs: opt(z.boolean()),
  stream_resumable: opt(z.boolean()),
  interrupt_before: opt(z.union([z.literal("*"), z.array(z.string().max(200)).max(16)])),
  interrupt_after: opt(z.union([z.literal("*"), z.array(z.string().max(200)).max(16)])),
  checkpoint: opt(checkpointSchema),
  checkpoint_id: opt(idSchema),
  multitask_strategy: opt(z.enum(MULTITASK_STRATEGIES)),
  on_completion: opt(z.enum(["delete", "keep"])),
  on_disconnect: opt(z.enum(["cancel", "continue"])),
  after_seconds: opt(z.number().min(0).max(0, "after_seconds is not supported by this server")),
  if_not_exists: opt(z.enum(["create", "reject"])),
  durability: opt(z.enum(["sync", "async", "exit"])),
  webhook: opt(z.string().max(2000)),
  feedback_keys: opt(z.array(z.string().max(200)).max(32)),
  strict_resume: opt(z.boolean()),
  checkpoint_during: opt(z.boolean()),
});
export type RunCreate = z.infer<typeof runCreateSchema>;

export const cancelQuerySchema = z.object({
  wait: z.enum(["0", "1", "true", "false"]).optional(),
  action: z.enum(["interrupt", "rollback"]).optional(),
});

export const assistantSearchSchema = z.object({
  graph_id: opt(z.string()),
  metadata: opt(record),
  name: opt(z.string().max(200)),
  limit: opt(z.number().int().min(0).max(1000)),
  offset: opt(offsetSchema),
});
