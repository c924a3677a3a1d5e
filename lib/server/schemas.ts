import { z } from "zod";

/**
 * Request bodies, as the SDK 1.15 sends them (snake_case). Optional fields accept null too:
 * other clients send explicit nulls where the SDK omits keys. Unknown keys are ignored.
 */

const opt = <T extends z.ZodType>(t: T) => t.nullish().transform((v) => v ?? undefined);

export const threadIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_\-.:]+$/, "thread_id may contain letters, digits, '_', '-', '.', ':'")
  .refine((s) => s !== "." && s !== "..", "thread_id must not be '.' or '..'");

const record = z.record(z.string(), z.unknown());

export const THREAD_STATUSES = ["idle", "busy", "interrupted", "error"] as const;
export const RUN_STATUSES = ["pending", "running", "success", "error", "timeout", "interrupted"] as const;

export const checkpointSchema = z.object({
  checkpoint_id: opt(z.string().min(1)),
  checkpoint_ns: opt(z.string()),
  checkpoint_map: opt(record),
  thread_id: opt(z.string()),
});
export type CheckpointRef = { checkpoint_id?: string; checkpoint_ns?: string; checkpoint_map?: Record<string, unknown>; thread_id?: string };

/** The checkpoint a request targets: a full `checkpoint` object, or the bare `checkpoint_id` shorthand. */
export function checkpointOf(body: { checkpoint?: CheckpointRef; checkpoint_id?: string }): CheckpointRef | undefined {
  return body.checkpoint ?? (body.checkpoint_id ? { checkpoint_id: body.checkpoint_id } : undefined);
}

export const threadCreateSchema = z.object({
  thread_id: opt(threadIdSchema),
  metadata: opt(record),
  if_exists: opt(z.enum(["raise", "do_nothing"])),
  supersteps: opt(z.array(z.unknown()).max(0, "supersteps are not supported by this server")),
  ttl: opt(z.unknown()),
});

export const threadPatchSchema = z.object({ metadata: opt(record), ttl: opt(z.unknown()) });

export const THREAD_FIELDS = ["thread_id", "created_at", "updated_at", "metadata", "config", "context", "status", "values", "interrupts"] as const;

export const threadSearchSchema = z.object({
  metadata: opt(record),
  values: opt(record),
  ids: opt(z.array(threadIdSchema).max(1000)),
  status: opt(z.enum(THREAD_STATUSES)),
  limit: opt(z.number().int().min(0).max(1000)),
  offset: opt(z.number().int().min(0)),
  sort_by: opt(z.enum(["thread_id", "status", "created_at", "updated_at"])),
  sort_order: opt(z.enum(["asc", "desc"])),
  select: opt(z.array(z.enum(THREAD_FIELDS)).min(1)),
  extract: opt(
    z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "extract keys must be identifiers"), z.string().min(1).max(200))
      .refine((r) => Object.keys(r).length <= 16, "at most 16 extract keys"),
  ),
});

export const threadCountSchema = z.object({
  metadata: opt(record),
  values: opt(record),
  status: opt(z.enum(THREAD_STATUSES)),
});

export const stateUpdateSchema = z.object({
  values: opt(z.union([record, z.array(z.unknown())])),
  as_node: opt(z.string().min(1)),
  checkpoint: opt(checkpointSchema),
  checkpoint_id: opt(z.string().min(1)),
});

export const stateCheckpointSchema = z.object({
  checkpoint: checkpointSchema,
  subgraphs: opt(z.boolean()),
  select: opt(z.array(z.string())),
});

export const historySchema = z.object({
  limit: opt(z.number().int().min(1).max(1000)),
  // The SDK types `before` as a run Config (`{ configurable: { checkpoint_id } }`); a bare
  // checkpoint object or id is accepted too.
  before: opt(z.union([z.string().min(1), z.object({ configurable: checkpointSchema }).transform((c) => c.configurable), checkpointSchema])),
  metadata: opt(record),
  checkpoint: opt(checkpointSchema),
  select: opt(z.array(z.string())),
});

/** Modes we produce. "messages-tuple" is the graph's "messages" mode sent as event `messages`. */
export const PRODUCED_STREAM_MODES = ["values", "updates", "messages-tuple", "custom", "debug", "checkpoints", "tasks", "tools"] as const;
/** Accepted so a useStream listener never turns into a 422, but nothing is sent for them. */
const ACCEPTED_STREAM_MODES = [...PRODUCED_STREAM_MODES, "messages", "events"] as const;
export type StreamMode = (typeof ACCEPTED_STREAM_MODES)[number];
const streamModeSchema = z.enum(ACCEPTED_STREAM_MODES);

export const MULTITASK_STRATEGIES = ["reject", "enqueue", "interrupt", "rollback"] as const;
export type MultitaskStrategy = (typeof MULTITASK_STRATEGIES)[number];

export const runCreateSchema = z.object({
  assistant_id: z.string().min(1),
  input: opt(z.union([record, z.array(z.unknown())])),
  command: opt(z.object({ resume: z.unknown().optional(), update: z.unknown().optional(), goto: z.unknown().optional() })),
  config: opt(
    z.object({
      configurable: opt(record),
      tags: opt(z.array(z.string())),
      recursion_limit: opt(z.number().int().min(1).max(10_000)),
      metadata: opt(record),
    }),
  ),
  context: opt(record),
  metadata: opt(record),
  stream_mode: opt(z.union([streamModeSchema, z.array(streamModeSchema)])),
  stream_subgraphs: opt(z.boolean()),
  stream_resumable: opt(z.boolean()),
  interrupt_before: opt(z.union([z.literal("*"), z.array(z.string())])),
  interrupt_after: opt(z.union([z.literal("*"), z.array(z.string())])),
  checkpoint: opt(checkpointSchema),
  checkpoint_id: opt(z.string().min(1)),
  multitask_strategy: opt(z.enum(MULTITASK_STRATEGIES)),
  on_completion: opt(z.enum(["delete", "keep"])),
  on_disconnect: opt(z.enum(["cancel", "continue"])),
  after_seconds: opt(z.number().min(0).max(0, "after_seconds is not supported by this server")),
  if_not_exists: opt(z.enum(["create", "reject"])),
  durability: opt(z.enum(["sync", "async", "exit"])),
  webhook: opt(z.string()),
  feedback_keys: opt(z.array(z.string())),
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
  name: opt(z.string()),
  limit: opt(z.number().int().min(0).max(1000)),
  offset: opt(z.number().int().min(0)),
});
