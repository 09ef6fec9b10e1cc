/**
 * The gateway's liveness pings, spread over their interval.
 *
 * Every socket is pinged once per interval and cut if it did not answer the previous ping.
 * Pinging them all in one turn blocked the event loop for the length of a thousand writes
 * (85 ms at 2,000 sockets on two cores), and every event delivered behind it waited that
 * long. Each socket is given one of `slices` slices as it joins, and one slice is pinged every
 * interval / slices, so each socket is still pinged exactly once per interval.
 */
export interface Probed {
  /** Cuts the socket if it did not answer the last ping; pings it. */
  probe(): void;
}

export class LivenessRounds<T extends Probed> {
  private readonly slices: Array<Set<T>>;
  private readonly sliceOf = new Map<T, number>();
  private nextSlice = 0;
  private nextJoin = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs: number, slices = 10) {
    this.slices = Array.from({ length: slices }, () => new Set<T>());
    this.timer = setInterval(() => this.probeNextSlice(), intervalMs / slices);
    this.timer.unref();
  }

  add(item: T): void {
    // Round-robin keeps the slices even however sockets come and go.
    const slice = this.nextJoin++ % this.slices.length;
    this.sliceOf.set(item, slice);
    this.slices[slice]!.add(item);
  }

  delete(item: T): void {
    const slice = this.sliceOf.get(item);
    if (slice === undefined) return;
    this.sliceOf.delete(item);
    this.slices[slice]!.delete(item);
  }

  /** @internal The timer's turn: pings the next slice. */
  probeNextSlice(): void {
    const slice = this.slices[this.nextSlice]!;
    this.nextSlice = (this.nextSlice + 1) % this.slices.length;
    for (const item of [...slice]) item.probe();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
