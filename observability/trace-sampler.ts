/**
 * Which new traces a process records: a share of them (`telemetry.sample_ratio`), and at most
 * so many a second (`telemetry.max_traces_per_second`), so a quiet deployment has every
 * request's trace while a busy one, or a client that asks for every request to be traced,
 * cannot make tracing cost more than a bounded number of traces a second. The cap is a token
 * bucket holding one second's worth, refilled continuously.
 */
export interface TraceSamplerOptions {
  /** Share of new traces recorded, 0..=1. */
  ratio: number;
  /** New traces recorded per second at most; 0: no cap. */
  maxPerSecond: number;
  /** Milliseconds, monotonic (tests pass their own). */
  now?: () => number;
}

export class TraceSampler {
  private readonly ratio: number;
  private readonly maxPerSecond: number;
  private readonly now: () => number;
  private tokens: number;
  private refilledAt: number;

  constructor({ ratio, maxPerSecond, now = () => performance.now() }: TraceSamplerOptions) {
    this.ratio = ratio;
    this.maxPerSecond = maxPerSecond;
    this.now = now;
    this.tokens = maxPerSecond;
    this.refilledAt = now();
  }

  /** Whether a trace this process starts is recorded: drawn by the ratio, then within the cap. */
  sampleNew(): boolean {
    return Math.random() < this.ratio && this.admit();
  }

  /** Whether a trace a client asked to record (its sampled flag) is recorded: within the cap. */
  admit(): boolean {
    if (this.maxPerSecond === 0) return true;
    const now = this.now();
    this.tokens = Math.min(this.maxPerSecond, this.tokens + ((now - this.refilledAt) / 1000) * this.maxPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
