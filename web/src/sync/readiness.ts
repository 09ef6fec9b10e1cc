/**
 * What the player tells the room (`player` message: `buffering` / `ready`), debounced: with
 * waitForAllReady one `buffering` pauses everybody, so a short stall is not reported, and
 * `ready` waits for play to hold for a moment so a stuttering stream does not chatter.
 */
import { BUFFERING_REPORT_AFTER_MS, READY_REPORT_AFTER_MS } from './thresholds.js';

export type ReadinessReport = 'buffering' | 'ready';

export class ReadinessReporter {
  private reported: ReadinessReport;
  /** Since when the raw state has differed from the reported one, or null. */
  private since: number | null = null;
  /** Until the media has been ready once, `ready` goes out at once: a room waiting to start should not wait for our debounce. */
  private everReady = false;

  constructor(
    initial: ReadinessReport = 'buffering',
    private readonly bufferingAfterMs = BUFFERING_REPORT_AFTER_MS,
    private readonly readyAfterMs = READY_REPORT_AFTER_MS,
  ) {
    this.reported = initial;
  }

  get current(): ReadinessReport {
    return this.reported;
  }

  /**
   * Feeds the player's raw state at local time `now`; returns the report to send when it
   * changes, else null.
   */
  update(buffering: boolean, now: number): ReadinessReport | null {
    const raw: ReadinessReport = buffering ? 'buffering' : 'ready';
    if (raw === this.reported) {
      this.since = null;
      return null;
    }
    this.since ??= now;
    const needed = raw === 'buffering' ? this.bufferingAfterMs : this.everReady ? this.readyAfterMs : 0;
    if (now - this.since < needed) return null;
    this.reported = raw;
    this.since = null;
    if (raw === 'ready') this.everReady = true;
    return raw;
  }

  /** New media loads from scratch: it is buffering until it has played a moment. */
  reset(initial: ReadinessReport = 'buffering'): void {
    this.reported = initial;
    this.since = null;
    this.everReady = false;
  }
}
