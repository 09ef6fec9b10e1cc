/**
 * Bounds how many commands a host starts per event-loop turn.
 *
 * nats.js parses a connection's whole socket backlog in one macrotask, and every command it
 * delivers would start its turn at once: a host that fell behind then ran thousands of turns
 * before its heartbeat timer could fire, lost its lease, and took its actors down with it.
 * Past `perTurn` commands, deliveries wait in arrival order and are started `perTurn` at a
 * time from setImmediate, so timers (the heartbeat among them) run between slices and a
 * backlog costs latency, not liveness.
 */
export class Pacer {
  private started = 0;
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  constructor(private readonly perTurn: number) {}

  /** Runs `start` now, or after the deliveries already waiting (never out of order). */
  run(start: () => void): void {
    if (this.waiting.length === 0 && this.started < this.perTurn) {
      this.started += 1;
      this.schedule();
      start();
      return;
    }
    this.waiting.push(start);
    this.schedule();
  }

  /** Deliveries waiting for a later slice. */
  get backlog(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.slice());
  }

  private slice(): void {
    this.scheduled = false;
    this.started = 0;
    const batch = this.waiting.splice(0, this.perTurn);
    this.started = batch.length;
    if (this.waiting.length > 0 || batch.length > 0) this.schedule();
    for (const start of batch) start();
  }
}
