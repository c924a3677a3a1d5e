/**
 * Bounds on what runs may cost a server: time, concurrency and replay memory. Read from the
 * environment once at start; a bad value stops the server there (see lib/agent/env-check.ts).
 */
export interface RunLimits {
  /** A run still going after this long is aborted and ends as `timeout`. */
  runTimeoutMs: number;
  /** Runs executing at once across all threads; more wait in their lane as `pending`. */
  maxConcurrentRuns: number;
  /** Events a run keeps for replay; beyond it token events are not kept (values always are). */
  maxReplayEvents: number;
  /** How long a finished run stays joinable in memory. */
  finishedRetentionMs: number;
  /** How long a finished run keeps its whole stream (for resumes), before only its outcome (LiveRun.compact). */
  fullReplayMs: number;
  /** How often finished runs and idle lanes are swept. */
  pruneIntervalMs: number;
  /** Runs that may start per event-loop turn; the rest start in later turns (run-admission.ts). */
  admitPerTurn: number;
}

export const DEFAULT_RUN_LIMITS: Readonly<RunLimits> = Object.freeze({
  runTimeoutMs: 600_000,
  maxConcurrentRuns: 8,
  maxReplayEvents: 5_000,
  finishedRetentionMs: 15 * 60_000,
  fullReplayMs: 60_000,
  pruneIntervalMs: 60_000,
  admitPerTurn: 4,
});

type Env = Readonly<Record<string, string | undefined>>;

function readInt(env: Env, name: string, min: number, max: number, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(raw)})`);
  }
  return n;
}

export function runLimitsFromEnv(env: Env): RunLimits {
  const d = DEFAULT_RUN_LIMITS;
  return {
    ...d,
    runTimeoutMs: readInt(env, "RUN_TIMEOUT_S", 1, 86_400, d.runTimeoutMs / 1000) * 1000,
    maxConcurrentRuns: readInt(env, "MAX_CONCURRENT_RUNS", 1, 1_000, d.maxConcurrentRuns),
    maxReplayEvents: readInt(env, "RUN_REPLAY_EVENTS", 100, 1_000_000, d.maxReplayEvents),
  };
}
