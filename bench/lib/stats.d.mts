// Types for stats.mjs, so the TypeScript bench scripts share its helpers instead of keeping their own.

/** The q-quantile (0..1) of a list of numbers, nearest-rank; NaN for an empty list. */
export function quantile(values: readonly number[], q: number): number;
export const p50: (values: readonly number[]) => number;
export const p95: (values: readonly number[]) => number;
export const p99: (values: readonly number[]) => number;
export const sleep: (ms: number) => Promise<void>;
/** Runs `job(i)` for i = 0..n-1 with `width` in flight; stops taking new jobs once `until()` is false. */
export function pool(n: number, width: number, job: (i: number) => Promise<unknown>, until?: () => boolean): Promise<number>;
/** Times `fn` `samples` times one after another (after `warmup` untimed calls); milliseconds. */
export function timeSeries(fn: () => Promise<unknown>, samples: number, warmup?: number): Promise<number[]>;
export const fmtMs: (v: number) => string;
