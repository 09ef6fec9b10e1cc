/**
 * The server clock as this client sees it: an estimator fed with ping/pong samples
 * (`clockSample()` of contracts/ws/protocol.ts: offset = server clock - client clock). The
 * estimate is the offset of the sample with the smallest round trip among the last few (the
 * NTP minimum-delay filter: the fastest exchange has the least room for asymmetry). It also
 * says when to ping next: a burst on (re)connect, then a jittered steady interval.
 * Pure: time is passed in, randomness injected.
 */
import {
  CLOCK_BURST_INTERVAL_MS,
  CLOCK_BURST_SAMPLES,
  CLOCK_MAX_RTT_MS,
  CLOCK_STEADY_MAX_MS,
  CLOCK_STEADY_MIN_MS,
  CLOCK_WINDOW,
} from './thresholds.js';

export interface ClockSample {
  /** Server clock minus client clock, ms. */
  offset: number;
  /** Round trip of the ping, ms. */
  rtt: number;
}

export interface ClockOptions {
  /** In [0, 1): jitters the steady ping interval. Default Math.random; tests pass a fixed one. */
  random?: () => number;
  window?: number;
  burstSamples?: number;
  burstIntervalMs?: number;
  steadyMinMs?: number;
  steadyMaxMs?: number;
  maxRttMs?: number;
}

export class ClockEstimator {
  private readonly samples: ClockSample[] = [];
  private lastPingAt: number | null = null;
  private steadyDelay: number;
  private readonly random: () => number;
  private readonly window: number;
  private readonly burstSamples: number;
  private readonly burstIntervalMs: number;
  private readonly steadyMinMs: number;
  private readonly steadyMaxMs: number;
  private readonly maxRttMs: number;

  constructor(options: ClockOptions = {}) {
    this.random = options.random ?? Math.random;
    this.window = options.window ?? CLOCK_WINDOW;
    this.burstSamples = options.burstSamples ?? CLOCK_BURST_SAMPLES;
    this.burstIntervalMs = options.burstIntervalMs ?? CLOCK_BURST_INTERVAL_MS;
    this.steadyMinMs = options.steadyMinMs ?? CLOCK_STEADY_MIN_MS;
    this.steadyMaxMs = options.steadyMaxMs ?? CLOCK_STEADY_MAX_MS;
    this.maxRttMs = options.maxRttMs ?? CLOCK_MAX_RTT_MS;
    this.steadyDelay = this.jitteredDelay();
  }

  /**
   * Adds a sample; returns whether it was kept. Dropped: non-finite values, a negative rtt,
   * and an rtt above `maxRttMs` once an estimate exists (a stalled exchange).
   */
  add(sample: ClockSample): boolean {
    if (!Number.isFinite(sample.offset) || !Number.isFinite(sample.rtt) || sample.rtt < 0) return false;
    if (sample.rtt > this.maxRttMs && this.samples.length > 0) return false;
    this.samples.push({ offset: sample.offset, rtt: sample.rtt });
    if (this.samples.length > this.window) this.samples.shift();
    return true;
  }

  /** After a reconnect (maybe to another gateway, over another path): start over with a burst. */
  reset(): void {
    this.samples.length = 0;
    this.lastPingAt = null;
  }

  /** The best sample (smallest rtt; the newer one on a tie), or null before any. */
  private best(): ClockSample | null {
    let best: ClockSample | null = null;
    for (const sample of this.samples) if (!best || sample.rtt <= best.rtt) best = sample;
    return best;
  }

  /** Server minus client clock in ms, or null before the first sample. */
  get offset(): number | null {
    return this.best()?.offset ?? null;
  }

  /** The round trip of the sample the estimate comes from (its uncertainty is half of it). */
  get rtt(): number | null {
    return this.best()?.rtt ?? null;
  }

  get sampleCount(): number {
    return this.samples.length;
  }

  /** True while the join burst runs: too few samples for a trustworthy minimum. */
  get needsBurst(): boolean {
    return this.samples.length < this.burstSamples;
  }

  /** Record that a ping was sent at local time `now`. */
  pinged(now: number): void {
    this.lastPingAt = now;
    this.steadyDelay = this.jitteredDelay();
  }

  /** Local ms at which the next ping is due (now or earlier: send one). */
  nextPingAt(): number {
    if (this.lastPingAt === null) return Number.NEGATIVE_INFINITY;
    return this.lastPingAt + (this.needsBurst ? this.burstIntervalMs : this.steadyDelay);
  }

  pingDue(now: number): boolean {
    return now >= this.nextPingAt();
  }

  /** Server time at local time `local`, or null before the first sample. */
  serverTime(local: number): number | null {
    const offset = this.offset;
    return offset === null ? null : local + offset;
  }

  /** Local time at which the server clock reads `server`, or null before the first sample. */
  localTime(server: number): number | null {
    const offset = this.offset;
    return offset === null ? null : server - offset;
  }

  private jitteredDelay(): number {
    const r = Math.min(0.999999, Math.max(0, this.random()));
    return this.steadyMinMs + r * (this.steadyMaxMs - this.steadyMinMs);
  }
}
