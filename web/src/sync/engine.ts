/**
 * The sync engine: called once per frame with the room's authoritative playback, the clock
 * offset and what the player shows, it answers the actions that bring the player to the room
 * (play, pause, seek, setRate, scheduleStart) and what to report to the room (buffering /
 * ready). Pure and deterministic: no timers, no DOM; the caller owns the <video> element and
 * the clock. Thresholds and their reasons: thresholds.ts and docs/2026-11-23-sync-engine.md.
 */
import type { PlaybackState } from '../../../contracts/room/model.js';
import { ReadinessReporter, type ReadinessReport } from './readiness.js';
import {
  ACTION_RETRY_MS,
  BUFFERED_AHEAD_S,
  BUFFERED_SEEK_LATENCY_INITIAL_MS,
  DEAD_BAND_FRAME_SHARE,
  DEAD_BAND_MAX_MS,
  DEAD_BAND_MS,
  DRIFT_MEDIAN_WINDOW,
  DRIFT_MIN_SAMPLES,
  FRAME_STEP_WINDOW,
  FRAMELESS_MS,
  JOIN_SEEK_MARGIN_MS,
  JOIN_SEEKS_MAX,
  LATE_START_MS,
  LATENCY_LEARNING_RATE,
  MAX_RATE_DEVIATION,
  NO_CLOCK_WAIT_MS,
  PAUSED_TOLERANCE_MS,
  RATE_GAIN_MS,
  RATE_STEP,
  SCHEDULE_RESEND_MS,
  SEEK_COOLDOWN_MS,
  SEEK_ONLY_COOLDOWN_MS,
  SEEK_ONLY_THRESHOLD_MS,
  SEEK_LANDING_TOLERANCE_S,
  SEEK_LATENCY_INITIAL_MS,
  SEEK_LATENCY_MAX_MS,
  SEEK_THRESHOLD_MS,
  SEEK_TIMEOUT_MS,
  SETTLE_BAND_MS,
  START_GRACE_MS,
  START_LATENCY_INITIAL_MS,
  START_LATENCY_MAX_MS,
} from './thresholds.js';

/** The room's playback as the server sends it (`updatedAt` in server ms, maybe ahead: a scheduled start). */
export type RoomPlayback = Pick<PlaybackState, 'mediaId' | 'playing' | 'position' | 'rate' | 'updatedAt'>;

/** What the player shows, sampled once per frame. */
export interface PlayerSample {
  /** The media loaded in the player; when given and not the room's, the engine waits (loading). */
  mediaId?: string | null;
  /**
   * The element knows the media's duration and can seek (readyState >= HAVE_METADATA); false:
   * the engine waits (loading). Before metadata, setting `currentTime` only records a start
   * position: `seeking` stays false and `currentTime` already reads the target, so a seek
   * issued then looked landed at once. Default true.
   */
  hasMetadata?: boolean;
  /** Seconds: the frame on screen (requestVideoFrameCallback `mediaTime`, else `currentTime`). */
  mediaTime: number;
  /** Local ms at which that frame was shown (performance.timeOrigin + the callback's expectedDisplayTime, else now). */
  at: number;
  /**
   * False: `mediaTime`/`at` are `currentTime` and now, read between frames (a timer while no
   * frame comes: paused, starting, stalled) where frames are otherwise timed. Chromium's
   * `currentTime` runs ahead of the frame on screen (by 50-150 ms while starting), so such a
   * sample measures no drift and lands no seek made while playing, unless no frame has come
   * for FRAMELESS_MS (a hidden tab renders none: then it is the best there is). Default true.
   */
  fromFrame?: boolean;
  paused: boolean;
  playbackRate: number;
  seeking: boolean;
  /** Stalled for data (readyState < HAVE_FUTURE_DATA while playing, or a `waiting` event). */
  buffering: boolean;
  /** Seconds, when known: targets are clamped to it. */
  duration?: number | undefined;
  /**
   * The element's buffered ranges ([start, end] s), when known: a seek into them only decodes
   * (tens of ms), one elsewhere fetches first (hundreds), and each kind is aimed with its own
   * learned latency.
   */
  buffered?: ReadonlyArray<readonly [number, number]> | undefined;
}

export type PlayerAction =
  | { type: 'play' }
  | { type: 'pause' }
  /** Seek to `position` (s); a seek while paused also cancels a scheduled start (a new one follows once it lands). */
  | { type: 'seek'; position: number }
  | { type: 'setRate'; rate: number }
  /** Hold paused at `position`, and play at local time `at` (ms); replaces an earlier schedule. */
  | { type: 'scheduleStart'; at: number; position: number };

export type SyncPhase =
  | 'idle' // nothing selected in the room
  | 'loading' // the player holds other media
  | 'paused' // the room is paused: holding at its position
  | 'scheduled' // the room starts at a future instant: holding until then
  | 'no_clock' // playing, but no clock estimate yet: a paused player waits for one (bounded), a playing one plays on uncorrected
  | 'starting' // the player was paused: play (after a seek when far off)
  | 'seeking' // a seek is in flight: no corrections until it lands
  | 'buffering' // the player stalls: no corrections
  | 'correcting' // a corrective rate runs
  | 'in_sync';

export interface SyncInput {
  /** The room's playback, or null before the first snapshot. */
  room: RoomPlayback | null;
  /** Server minus local clock (ms) from the ClockEstimator, or null before the first sample. */
  offset: number | null;
  player: PlayerSample;
  /** Local ms (performance.timeOrigin + performance.now()). */
  now: number;
}

export interface SyncResult {
  actions: PlayerAction[];
  /** Wall ms the player is behind the room (negative: ahead), the median of the last frames; null when not measured. */
  driftMs: number | null;
  phase: SyncPhase;
  /** A readiness report to send to the room (`player` message) now, or null: it did not change. */
  report: ReadinessReport | null;
}

export interface SyncEngineOptions {
  /** Starting estimate of seek latency (ms), e.g. remembered from an earlier session. */
  seekLatencyMs?: number;
  /** Starting estimate of the player's start-up latency (ms), likewise. */
  startLatencyMs?: number | undefined;
  /** The player changes rate smoothly in 1 % steps (default); false: drift is corrected by seeking only. */
  smoothRate?: boolean;
}

interface PendingSeek {
  issuedAt: number;
  target: number;
  /** While playing, the landing error (how far behind the room the first frame is) teaches the latency; while paused, its duration. */
  playing: boolean;
  /** Aimed into buffered media: it teaches the buffered latency, else the fetching one. */
  buffered: boolean;
}

interface Correction {
  direction: 1 | -1;
  steps: number;
}

const MAX_STEPS = Math.round(MAX_RATE_DEVIATION / RATE_STEP);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Rate steps (of RATE_STEP) for a drift: proportional (drift / RATE_GAIN_MS), at least one, at most the cap. */
export function stepsFor(driftMs: number): number {
  return Math.min(MAX_STEPS, Math.max(1, Math.ceil(Math.abs(driftMs) / RATE_GAIN_MS / RATE_STEP - 1e-9)));
}

/** Whether `position` and BUFFERED_AHEAD_S after it are in one buffered range. */
function isBuffered(position: number, buffered: PlayerSample['buffered']): boolean {
  return (buffered ?? []).some(([start, end]) => start <= position && position + BUFFERED_AHEAD_S <= end);
}

/** Media seconds of the room at server time `serverMs` (as actors/room/playback.ts positionAt: nothing elapses before updatedAt). */
export function roomPositionAt(room: RoomPlayback, serverMs: number): number {
  if (!room.playing) return room.position;
  return room.position + (Math.max(0, serverMs - room.updatedAt) / 1000) * room.rate;
}

export class SyncEngine {
  private readonly readiness = new ReadinessReporter();
  /** Learned seek latencies (ms): into media not buffered (fetch, then decode), and into buffered media (decode only). */
  private latencyMs: number;
  private bufferedLatencyMs = BUFFERED_SEEK_LATENCY_INITIAL_MS;
  private stateKey = '';
  private drifts: number[] = [];
  /** Wall ms between successive frames on screen, the newest last; and the last frame's media time. */
  private frameSteps: number[] = [];
  private lastFrame: number | null = null;
  private pendingSeek: PendingSeek | null = null;
  private lastSeekAt = Number.NEGATIVE_INFINITY;
  private correction: Correction | null = null;
  private lastPlayAt = Number.NEGATIVE_INFINITY;
  private lastPauseAt = Number.NEGATIVE_INFINITY;
  /** Local ms at which the announced start calls play() (the instant less the start-up latency). */
  private announcedStart: number | null = null;
  /** A scheduled start whose landing has not taught the start-up latency yet. */
  private startToLearn = false;
  private startLatency: number;
  private noClockSince: number | null = null;
  /** Local ms of the last frame sample, or of a start (frames are due after it); and whether the last tick saw the player paused. */
  private framesAt = Number.NEGATIVE_INFINITY;
  private wasPaused = true;
  /** Whether this tick's sample measures drift: a frame, or `currentTime` when frames do not come. */
  private measurable = true;
  /** Seeks a paused player made to join the room's current state (bounded: JOIN_SEEKS_MAX). */
  private joinSeeks = 0;
  /** How long the last fetching seek while paused took (ms): a fetching join seek allows at least this, whatever the slower-moving estimate says. */
  private lastPausedFetchMs = 0;
  /** Rate corrections are possible; else drift beyond SEEK_ONLY_THRESHOLD_MS is closed by a seek. */
  private smoothRate: boolean;

  constructor(options: SyncEngineOptions = {}) {
    this.latencyMs = options.seekLatencyMs ?? SEEK_LATENCY_INITIAL_MS;
    this.startLatency = options.startLatencyMs ?? START_LATENCY_INITIAL_MS;
    this.smoothRate = options.smoothRate ?? true;
  }

  /** Another kind of player took over (see `smoothRate` in SyncEngineOptions). */
  setSmoothRate(smooth: boolean): void {
    this.smoothRate = smooth;
    this.correction = null;
  }

  /** The learned latency (ms) of a seek into media not buffered: how far ahead such seeks aim. */
  get seekLatencyMs(): number {
    return this.latencyMs;
  }

  /**
   * The host's start timer fired while the player was still seeking, and it did not play: that
   * would run late by what the seek still takes, closed at 50 ms a second by the rate. The start
   * is no longer announced, so the tick after the seek lands announces it again (a start still
   * ahead plays at once) or, past the instant, starts from that frame or aims a seek ahead.
   */
  startMissed(): void {
    this.announcedStart = null;
  }

  /** The learned start-up latency (ms): how long before a scheduled instant play() is called. */
  get startLatencyMs(): number {
    return this.startLatency;
  }

  /** New media or a new connection: forget the per-media state (the learned latencies stay). */
  reset(): void {
    this.readiness.reset();
    this.stateKey = '';
    this.frameSteps = [];
    this.noClockSince = null;
    this.forgetState();
  }

  /**
   * The page was away (frozen, hidden, the device asleep): the drift window, the frame steps, a
   * seek in flight and an announced start are from before, and the seek cooldown guards nothing.
   * The next tick measures afresh and, when the room is far, seeks at once; the readiness
   * reported and the learned latencies stay.
   */
  resume(): void {
    this.stateKey = '';
    this.frameSteps = [];
    this.noClockSince = null;
  }

  /** The dead band now (ms): just over half the frame interval on screen, within bounds (thresholds.ts). */
  get deadBandMs(): number {
    const frame = this.frameMs();
    return frame === null ? DEAD_BAND_MS : Math.min(DEAD_BAND_MAX_MS, Math.max(DEAD_BAND_MS, DEAD_BAND_FRAME_SHARE * frame));
  }

  /** Where a correction ends (ms): the settle band, or half a frame once frames are known (the nearest frame is the best there is). */
  private get settleBandMs(): number {
    const frame = this.frameMs();
    return frame === null ? SETTLE_BAND_MS : Math.min(this.deadBandMs, Math.max(SETTLE_BAND_MS, frame / 2));
  }

  /** Median wall ms between frames on screen, or null before enough frames. */
  private frameMs(): number | null {
    return this.frameSteps.length < DRIFT_MIN_SAMPLES ? null : median(this.frameSteps);
  }

  tick(input: SyncInput): SyncResult {
    const { room, player, now } = input;
    const report = this.readiness.update(player.buffering, now);
    if (player.fromFrame !== false || (this.wasPaused && !player.paused)) this.framesAt = now;
    this.wasPaused = player.paused;
    this.measurable = player.fromFrame !== false || now - this.framesAt > FRAMELESS_MS;
    const actions: PlayerAction[] = [];
    const done = (phase: SyncPhase, driftMs: number | null = null): SyncResult => ({ actions, driftMs, phase, report });

    if (!room || room.mediaId === null) return done('idle');
    if (player.mediaId !== undefined && player.mediaId !== room.mediaId) return done('loading');
    if (player.hasMetadata === false) return done('loading');

    const key = `${room.mediaId}|${room.playing}|${room.position}|${room.rate}|${room.updatedAt}`;
    const changed = key !== this.stateKey;
    if (changed) {
      // The room changed: measurements and a seek aimed at the old state mean nothing now,
      // and a new target may be sought at once.
      this.stateKey = key;
      this.forgetState();
      this.lastSeekAt = Number.NEGATIVE_INFINITY;
      this.joinSeeks = 0;
    }

    if (this.pendingSeek) {
      if (!this.seekLanded(this.pendingSeek, room, input)) return done('seeking');
      this.pendingSeek = null;
    } else if (player.seeking && !changed) {
      // Someone else's seek (the user scrubbing): wait for it.
      return done('seeking');
    }

    if (!room.playing) return done(this.hold(room.position, room, player, now, actions) ? 'seeking' : 'paused');
    if (input.offset === null) {
      // Starting without the clock would start at the wrong place and cost a seek once it
      // comes (one round trip later, normally): wait for it, but not for ever.
      this.noClockSince ??= now;
      if (player.paused && now - this.noClockSince >= NO_CLOCK_WAIT_MS) this.play(now, actions);
      this.matchRate(room.rate, player, actions);
      return done('no_clock');
    }
    this.noClockSince = null;
    const offset = input.offset;
    const serverNow = now + offset;

    if (serverNow + START_GRACE_MS < room.updatedAt) {
      // Our own start, begun early by the start-up latency: let it run.
      if (!player.paused && this.announcedStart !== null && now + START_GRACE_MS >= this.announcedStart) return done('scheduled');
      const seeking = this.hold(room.position, room, player, now, actions);
      this.announceStart(room.updatedAt - offset, room.position, actions);
      return done(seeking ? 'seeking' : 'scheduled');
    }

    if (player.paused) return this.start(room, player, offset, now, actions, done);
    if (player.buffering) return done('buffering');
    if (!this.measurable) return done(this.correction ? 'correcting' : 'in_sync', this.drifts.length > 0 ? median(this.drifts) : null);

    this.noteFrame(player.mediaTime, room.rate);
    this.drifts.push(this.lagMs(room, player, offset));
    if (this.drifts.length > DRIFT_MEDIAN_WINDOW) this.drifts.shift();
    const drift = median(this.drifts);
    if (this.startToLearn && this.drifts.length === DRIFT_MEDIAN_WINDOW) this.learnStart(drift);

    const seekBeyond = this.smoothRate ? SEEK_THRESHOLD_MS : SEEK_ONLY_THRESHOLD_MS;
    if (Math.abs(drift) > seekBeyond && now - this.lastSeekAt >= (this.smoothRate ? SEEK_COOLDOWN_MS : SEEK_ONLY_COOLDOWN_MS)) {
      this.correction = null;
      this.matchRate(room.rate, player, actions);
      this.seekAhead(room, player, serverNow, now, actions);
      return done('seeking', drift);
    }

    if (this.smoothRate) this.updateCorrection(drift);
    const correction = this.correction;
    const rate = correction ? room.rate * (1 + correction.direction * correction.steps * RATE_STEP) : room.rate;
    this.matchRate(rate, player, actions);
    return done(correction ? 'correcting' : 'in_sync', drift);
  }

  /**
   * A paused player in a playing room. Ahead by at least the start-up latency, and by no more
   * than a join seek aims: start at the instant the room reaches this frame (play() the
   * start-up latency before it). Slightly late (a seek that landed a little late, a play that
   * reached us late, a start timer that fired late), or after JOIN_SEEKS_MAX join seeks: play,
   * and the rate closes the rest. Otherwise: seek while paused to where the room will be once the seek
   * has landed and play() has had its start-up latency (plus a margin), and start there at
   * that instant, next ticks. A join seek that landed too late to start on time is not
   * followed by play(): that would run the lateness plus the start-up latency behind
   * (60-120 ms), which the rate closes at 50 ms a second; a second seek, into the media the
   * first one buffered or aimed with the latency it taught, lands ahead.
   */
  private start(
    room: RoomPlayback,
    player: PlayerSample,
    offset: number,
    now: number,
    actions: PlayerAction[],
    done: (phase: SyncPhase, driftMs?: number | null) => SyncResult,
  ): SyncResult {
    const serverNow = now + offset;
    // A paused frame stays on screen: compare it with the room now.
    const lag = ((roomPositionAt(room, serverNow) - player.mediaTime) * 1000) / room.rate;
    // How far behind the room the picture would run if play() were called now.
    const lateBy = lag + this.startLatency;
    const fetchAim = Math.max(this.latencyMs, this.lastPausedFetchMs) + this.startLatency + JOIN_SEEK_MARGIN_MS;
    if (lateBy <= 0 && -lag <= fetchAim + SEEK_THRESHOLD_MS) {
      const at = room.updatedAt + ((player.mediaTime - room.position) / room.rate) * 1000 - offset;
      this.announceStart(at, player.mediaTime, actions);
      return done('scheduled', lag);
    }
    const givenUp = this.joinSeeks >= JOIN_SEEKS_MAX && lag <= SEEK_THRESHOLD_MS;
    if (lateBy > 0 && (lateBy <= LATE_START_MS || givenUp)) {
      // Not on time: what it lands at says nothing about the start-up latency.
      this.startToLearn = false;
      this.play(now, actions);
      return done('starting', lag);
    }
    this.joinSeeks++;
    this.seekTo(this.aim(room, player, serverNow, this.startLatency + JOIN_SEEK_MARGIN_MS, true), false, now, actions);
    return done('seeking', lag);
  }

  /** Starts at local instant `at`: play() is called the learned start-up latency before it. */
  private announceStart(at: number, position: number, actions: PlayerAction[]): void {
    const playAt = at - this.startLatency;
    if (this.announcedStart !== null && Math.abs(playAt - this.announcedStart) <= SCHEDULE_RESEND_MS) return;
    this.announcedStart = playAt;
    this.startToLearn = true;
    actions.push({ type: 'scheduleStart', at: playAt, position });
  }

  /**
   * A scheduled start has run a full drift window: its lag is the start-up latency not yet
   * allowed for. Half of it is learned (as for seeks); a lag beyond START_LATENCY_MAX_MS is
   * something else (a stall, a late seek) and teaches nothing.
   */
  private learnStart(driftMs: number): void {
    this.startToLearn = false;
    if (Math.abs(driftMs) > START_LATENCY_MAX_MS) return;
    this.startLatency = Math.min(START_LATENCY_MAX_MS, Math.max(0, this.startLatency + LATENCY_LEARNING_RATE * driftMs));
  }

  /** Learns the frame interval from successive frames of steady playback (a stall or a seek between them says nothing). */
  private noteFrame(mediaTime: number, rate: number): void {
    const step = this.lastFrame === null ? 0 : ((mediaTime - this.lastFrame) * 1000) / rate;
    this.lastFrame = mediaTime;
    if (step <= 0 || step > 250) return;
    this.frameSteps.push(step);
    if (this.frameSteps.length > FRAME_STEP_WINDOW) this.frameSteps.shift();
  }

  private forgetState(): void {
    this.lastFrame = null;
    this.drifts = [];
    this.pendingSeek = null;
    this.correction = null;
    this.announcedStart = null;
    this.startToLearn = false;
  }

  /** Wall ms the frame on screen is behind the room (negative: ahead). */
  private lagMs(room: RoomPlayback, player: PlayerSample, offset: number): number {
    let expected = roomPositionAt(room, player.at + offset);
    if (player.duration !== undefined && Number.isFinite(player.duration)) expected = Math.min(expected, player.duration);
    return ((expected - player.mediaTime) * 1000) / room.rate;
  }

  /**
   * Holds a paused player at `position` (a paused room, or one waiting for its start): pause,
   * seek when more than about a frame away, room rate. Returns whether a seek was issued.
   */
  private hold(position: number, room: RoomPlayback, player: PlayerSample, now: number, actions: PlayerAction[]): boolean {
    this.correction = null;
    if (!player.paused && now - this.lastPauseAt >= ACTION_RETRY_MS) {
      this.lastPauseAt = now;
      actions.push({ type: 'pause' });
    }
    this.matchRate(room.rate, player, actions);
    const target = this.clampToDuration(position, player);
    if (Math.abs(player.mediaTime - target) * 1000 <= PAUSED_TOLERANCE_MS) return false;
    this.seekTo({ target, buffered: isBuffered(target, player.buffered) }, false, now, actions);
    return true;
  }

  private play(now: number, actions: PlayerAction[]): void {
    if (now - this.lastPlayAt < ACTION_RETRY_MS) return;
    this.lastPlayAt = now;
    actions.push({ type: 'play' });
  }

  private matchRate(rate: number, player: PlayerSample, actions: PlayerAction[]): void {
    if (Math.abs(player.playbackRate - rate) > 1e-9) actions.push({ type: 'setRate', rate });
  }

  private clampToDuration(position: number, player: PlayerSample): number {
    const max = player.duration !== undefined && Number.isFinite(player.duration) ? player.duration : Number.POSITIVE_INFINITY;
    return Math.max(0, Math.min(position, max));
  }

  /** A playing player seeks to where the room will be once the seek has landed (the learned latency ahead). */
  private seekAhead(room: RoomPlayback, player: PlayerSample, serverNow: number, now: number, actions: PlayerAction[]): void {
    this.seekTo(this.aim(room, player, serverNow, 0, false), true, now, actions);
  }

  /**
   * Where a seek lands on the room `extraMs` after landing: with the buffered latency when
   * that target is buffered, else with the fetching one (for a join seek, at least what the
   * last fetching paused seek took).
   */
  private aim(room: RoomPlayback, player: PlayerSample, serverNow: number, extraMs: number, join: boolean): { target: number; buffered: boolean } {
    const quick = this.clampToDuration(roomPositionAt(room, serverNow + this.bufferedLatencyMs + extraMs), player);
    if (isBuffered(quick, player.buffered)) return { target: quick, buffered: true };
    const fetchMs = join ? Math.max(this.latencyMs, this.lastPausedFetchMs) : this.latencyMs;
    return { target: this.clampToDuration(roomPositionAt(room, serverNow + fetchMs + extraMs), player), buffered: false };
  }

  /** A seek; one from a paused player also drops a start announced before it (the caller's host drops its timer on a paused seek). */
  private seekTo({ target, buffered }: { target: number; buffered: boolean }, playing: boolean, now: number, actions: PlayerAction[]): void {
    this.pendingSeek = { issuedAt: now, target, playing, buffered };
    this.lastSeekAt = now;
    this.drifts = [];
    if (!playing) this.announcedStart = null;
    actions.push({ type: 'seek', position: target });
  }

  /** Moves the latency estimate of a seek of this kind by a share of its error. */
  private learn(buffered: boolean, errorMs: number): void {
    const learned = (estimate: number): number => Math.min(SEEK_LATENCY_MAX_MS, Math.max(0, estimate + LATENCY_LEARNING_RATE * errorMs));
    if (buffered) this.bufferedLatencyMs = learned(this.bufferedLatencyMs);
    else this.latencyMs = learned(this.latencyMs);
  }

  /**
   * A seek has landed when the player no longer seeks and shows a frame from after the seek
   * near its target. Its error (how far behind the room that first frame is) corrects the
   * latency estimate. A seek that never lands is dropped after SEEK_TIMEOUT_MS.
   */
  private seekLanded(seek: PendingSeek, room: RoomPlayback, input: SyncInput): boolean {
    const { player, now, offset } = input;
    if (now - seek.issuedAt > SEEK_TIMEOUT_MS) return true;
    if (player.seeking || player.at <= seek.issuedAt) return false;
    if (seek.playing && !player.paused && !this.measurable) return false;
    const since = ((now - seek.issuedAt) / 1000) * Math.max(room.rate, 1);
    if (Math.abs(player.mediaTime - seek.target) > SEEK_LANDING_TOLERANCE_S + since) return false;
    if (seek.playing && room.playing && !player.paused && offset !== null) this.learn(seek.buffered, this.lagMs(room, player, offset));
    else if (!seek.playing && player.paused) {
      const took = Math.min(SEEK_LATENCY_MAX_MS, now - seek.issuedAt);
      this.learn(seek.buffered, took - (seek.buffered ? this.bufferedLatencyMs : this.latencyMs));
      if (!seek.buffered) this.lastPausedFetchMs = took;
    }
    return true;
  }

  /**
   * Hysteresis: a correction starts beyond the dead band (once enough frames measured both) and
   * runs until the drift is inside the settle band (half a frame when frames are known: the
   * drift on screen moves a frame at a time, so nearer is not reachable) or changed sign;
   * meanwhile its step only shrinks (no hunting), unless the drift grew by two steps or more
   * (the room or the clock jumped).
   */
  private updateCorrection(drift: number): void {
    const current = this.correction;
    if (current) {
      if (Math.abs(drift) < this.settleBandMs || Math.sign(drift) !== current.direction) {
        this.correction = null;
        return;
      }
      const steps = stepsFor(drift);
      if (steps < current.steps || steps >= current.steps + 2) current.steps = steps;
      return;
    }
    const measured = this.drifts.length >= DRIFT_MIN_SAMPLES && this.frameSteps.length >= DRIFT_MIN_SAMPLES;
    if (measured && Math.abs(drift) > this.deadBandMs) this.correction = { direction: drift > 0 ? 1 : -1, steps: stepsFor(drift) };
  }
}
