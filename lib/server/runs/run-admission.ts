/**
 * Starts runs a few per event-loop turn, from `setImmediate` (the loop's check phase, after I/O).
 * Why: a run that starts at once competes for the one CPU with every other POST still being
 * routed, and each of those needs several loop turns (the group commit, Next's streaming) before
 * its client sees the `metadata` event. When many runs are created together, each turn first
 * serves the pending requests' I/O, then starts at most `perTurn` runs, so the first event of a
 * run created later is not stuck behind the graph work of the runs created just before it.
 * Order is first come, first served; a run's lane and slot rules are unchanged (it holds its
 * lane from the moment it is queued here).
 */
export class RunAdmission {
  private readonly queue: (() => void)[] = [];
  private scheduled = false;

  constructor(private readonly perTurn: number) {}

  get waiting() {
    return this.queue.length;
  }

  admit(start: () => void) {
    this.queue.push(start);
    this.schedule();
  }

  private schedule() {
    if (this.scheduled || !this.queue.length) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      for (const start of this.queue.splice(0, Math.max(1, this.perTurn))) start();
      this.schedule();
    });
  }
}
