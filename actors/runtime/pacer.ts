/**
 * Shares a host's event loop between its actors, and sheds commands when it cannot keep up.
 *
 * Work comes in slices, one per event-loop turn (setImmediate). In a slice, at most `perSlice`
 * delivered commands start and the turns of all activations together run for about
 * `sliceMs`; then every activation with more work waits for the next slice, after timers and
 * network I/O have run. Without this, nats.js (which parses a whole socket backlog in one
 * macrotask) started every delivered command at once, and activations with queued commands
 * each ran their own time slice back to back: a host that fell behind ran for seconds without
 * its heartbeat timer firing, lost its lease, and took its actors down with it.
 *
 * Admission control: while some work (a delivery not started yet, or an activation with queued
 * commands waiting for a slice) has waited longer than `maxWaitMs` for this host's CPU, new
 * deliveries are shed (the activation answers them `busy`) instead of queued. Without it a
 * backlog only grows: commands wait past their clients' try timeouts, the clients send them
 * again and ask the pool to re-resolve the actors, and that extra load keeps the host behind
 * long after the burst that caused it. Waits on I/O (a turn awaiting PostgreSQL) are not CPU
 * waits and never count; each mailbox's own bound covers those.
 */
export interface PacerOptions {
  /** Delivered commands started per slice at most. */
  perSlice: number;
  /** Turn time per slice, all activations together, before they wait for the next slice. */
  sliceMs: number;
  /** Longest wait for CPU before new deliveries are shed. */
  maxWaitMs: number;
}

export class Pacer {
  private readonly waiting: Array<{ start: () => void; since: number }> = [];
  private yielded: Array<() => void> = [];
  /** performance.now() when the current slice began; undefined until something runs after the last one. */
  private sliceStart: number | undefined;
  private started = 0;
  /** When the first activation that waits for this slice (or the one before) began to wait. */
  private oldestYield = Infinity;
  private oldestYieldBefore = Infinity;

  constructor(private readonly options: PacerOptions) {}

  /**
   * Runs `start` now, or after the deliveries already waiting (never out of order); runs
   * `shed` instead when work has waited longer than `maxWaitMs` for this host.
   */
  run(start: () => void, shed: () => void): void {
    const now = performance.now();
    const sliceStart = this.open(now);
    if (this.waiting.length === 0 && this.started < this.options.perSlice && now - sliceStart < this.options.sliceMs) {
      this.started += 1;
      start();
      return;
    }
    if (this.behind(now)) {
      shed();
      return;
    }
    this.waiting.push({ start, since: now });
  }

  /**
   * Called by an activation between turns while it has more work: undefined while the slice
   * has time left, else a promise of the next slice. Its CPU wait counts from now: how long
   * its next command already waited behind turns that awaited I/O is not this host's CPU.
   */
  pause(): Promise<void> | undefined {
    const now = performance.now();
    if (now - this.open(now) < this.options.sliceMs) return undefined;
    this.oldestYield = Math.min(this.oldestYield, now);
    return new Promise((resolve) => this.yielded.push(resolve));
  }

  /** Deliveries waiting for a later slice. */
  get backlog(): number {
    return this.waiting.length;
  }

  /** Whether some work has waited longer than `maxWaitMs` for this host's CPU. */
  private behind(now: number): boolean {
    const oldest = Math.min(this.waiting[0]?.since ?? Infinity, this.oldestYield, this.oldestYieldBefore);
    return now - oldest > this.options.maxWaitMs;
  }

  /** The current slice's start, opening one (and scheduling its end) when none is open. */
  private open(now: number): number {
    if (this.sliceStart === undefined) {
      this.sliceStart = now;
      setImmediate(() => this.slice());
    }
    return this.sliceStart;
  }

  private slice(): void {
    this.sliceStart = undefined;
    this.oldestYieldBefore = this.oldestYield;
    this.oldestYield = Infinity;
    const resumed = this.yielded;
    this.yielded = [];
    this.started = 0;
    if (resumed.length === 0 && this.waiting.length === 0) return;
    const sliceStart = this.open(performance.now());
    // Resumed activations continue as microtasks after this function, behind the new starts.
    for (const resume of resumed) resume();
    // Each start runs the command's turn at once when its actor is idle: bounded by time too.
    let count = 0;
    while (count < this.waiting.length && count < this.options.perSlice && (count === 0 || performance.now() - sliceStart < this.options.sliceMs)) {
      (this.waiting[count] as { start: () => void }).start();
      count += 1;
    }
    this.waiting.splice(0, count);
    this.started = count;
  }
}
