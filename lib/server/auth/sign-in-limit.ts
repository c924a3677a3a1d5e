/**
 * Failed sign-ins counted per account (the normalised email), in memory. better-auth's own
 * limiter keys on the client IP, which comes from a header a client can send itself (next start
 * fills `x-forwarded-for` from the socket only when the client sent none), so rotating that header
 * buys a fresh bucket per request. This count depends on no header: only on which account is tried.
 *
 * Every email is counted the same way, existing or not, so a 429 says nothing about whether an
 * account exists. An attempt is counted when it starts (a burst of parallel guesses cannot all pass
 * the check before the first failure lands); a success clears the account's count, an attempt that
 * was not a password check (a malformed email, say) is given back.
 */
export const FAILED_SIGN_IN_LIMIT = { windowSeconds: 15 * 60, max: 10 };

/** Bounds the memory a flood of made-up emails can take (oldest-touched accounts are dropped first). */
const MAX_ACCOUNTS = 100_000;

/** The key better-auth itself looks accounts up by (it lowercases), trimmed. */
export function accountKey(email: unknown): string | null {
  if (typeof email !== "string") return null;
  const key = email.trim().toLowerCase();
  return key ? key : null;
}

export class FailedSignIns {
  /** Per account: the start times (ms) of the attempts still in the window, oldest first, at most `max`. */
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limit = FAILED_SIGN_IN_LIMIT,
    private readonly now: () => number = Date.now,
  ) {}

  private live(key: string): number[] {
    const since = this.now() - this.limit.windowSeconds * 1000;
    const times = (this.attempts.get(key) ?? []).filter((t) => t > since);
    if (times.length) this.attempts.set(key, times);
    else this.attempts.delete(key);
    return times;
  }

  /** Seconds until this account may be tried again, or null when it may be tried now. */
  retryAfter(key: string): number | null {
    const times = this.live(key);
    if (times.length < this.limit.max) return null;
    const freed = times[times.length - this.limit.max] + this.limit.windowSeconds * 1000;
    return Math.max(1, Math.ceil((freed - this.now()) / 1000));
  }

  /**
   * Starts an attempt: null when it is counted and may go on, else the seconds to wait (nothing
   * counted). The count stays unless `succeeded` or `giveBack` follows.
   */
  begin(key: string): number | null {
    const wait = this.retryAfter(key);
    if (wait != null) return wait;
    const times = this.live(key);
    this.attempts.delete(key); // re-inserted last: the Map's order is "least recently touched first"
    this.attempts.set(key, [...times, this.now()].slice(-this.limit.max));
    if (this.attempts.size > MAX_ACCOUNTS) this.attempts.delete(this.attempts.keys().next().value!);
    return null;
  }

  /** The right password: the account's failures are forgotten. */
  succeeded(key: string) {
    this.attempts.delete(key);
  }

  /** An attempt that never reached a password check does not count. */
  giveBack(key: string) {
    const times = this.live(key);
    times.pop();
    if (times.length) this.attempts.set(key, times);
    else this.attempts.delete(key);
  }
}
