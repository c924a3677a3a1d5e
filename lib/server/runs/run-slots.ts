/**
 * The global cap on runs executing at once (MAX_CONCURRENT_RUNS). Runs beyond it wait, first come
 * first served; a cancel while waiting rejects at once. A released slot goes straight to the
 * oldest waiter, so the count never dips and a queued run is never overtaken.
 */
export class RunSlots {
  private used = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(private readonly max: number) {}

  get executing() {
    return this.used;
  }

  get waiting() {
    return this.waiters.length;
  }

  acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(new Error("Run cancelled"));
    if (this.used < this.max) {
      this.used++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => resolve();
      this.waiters.push(grant);
      signal.addEventListener(
        "abort",
        () => {
          const i = this.waiters.indexOf(grant);
          if (i < 0) return; // already granted: the run releases the slot itself
          this.waiters.splice(i, 1);
          reject(new Error("Run cancelled"));
        },
        { once: true },
      );
    });
  }

  release() {
    const next = this.waiters.shift();
    if (next) next();
    else this.used--;
  }
}
