/**
 * Strictly increasing wall-clock timestamps (ISO, ms). Two writes never share an instant, so
 * `updated_at` order has no ties and an `$as_of` instant handed to a client is strictly before
 * every later write, which is what makes snapshot paging exact.
 */
let last = 0;

export function nowMs(): number {
  const t = Date.now();
  last = t > last ? t : last + 1;
  return last;
}

export const nowIso = (): string => new Date(nowMs()).toISOString();
