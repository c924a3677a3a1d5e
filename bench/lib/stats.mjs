// Small numeric helpers shared by the workloads.

/** The q-quantile (0..1) of a list of numbers, nearest-rank; NaN for an empty list. */
export function quantile(values, q) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const p50 = (v) => quantile(v, 0.5);
export const p95 = (v) => quantile(v, 0.95);
export const p99 = (v) => quantile(v, 0.99);

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `job(i)` for i = 0..n-1 with `width` in flight; stops taking new jobs once `until()` is false. */
export async function pool(n, width, job, until = () => true) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n && until()) await job(next++);
    }),
  );
  return next;
}

/** Times `fn` `samples` times one after another (after `warmup` untimed calls); milliseconds. */
export async function timeSeries(fn, samples, warmup = 3) {
  for (let i = 0; i < warmup; i++) await fn();
  const out = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export const fmtMs = (v) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) : "—");
