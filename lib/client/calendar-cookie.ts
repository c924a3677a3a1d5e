/** Cookie in which the browser reports its UTC offset, so the server groups dates as it will. */
export const TZ_COOKIE = "tl_tz_offset";

/** Minutes east of UTC from a cookie value, or null when absent or not a real offset. */
export function parseTzOffset(raw: string | undefined | null): number | null {
  if (raw == null || !/^-?\d{1,4}$/.test(raw.trim())) return null;
  const n = Number(raw);
  return n >= -840 && n <= 840 ? n : null;
}
