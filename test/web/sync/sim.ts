/**
 * A simulated server clock, local clock and <video> player for the sync engine's tests: the
 * player advances its media time with its rate, seeks take a latency, the screen refreshes at
 * 60 Hz, the local clock may run a little fast against the server's, and measurements get
 * noise. With `videoFps`, the screen shows whole frames as a browser does: a frame appears at
 * the first refresh at or after its timestamp, and the engine hears of it then, once
 * (requestVideoFrameCallback), with that frame's timestamp.
 * Everything is stepped by hand: no timers, no sleeps.
 */
import { START_LATENCY_INITIAL_MS } from '../../../web/src/sync/thresholds.js';
import { roomPositionAt, SyncEngine, type PlayerAction, type PlayerSample, type RoomPlayback, type SyncResult } from '../../../web/src/sync/engine.js';

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const T0 = 1_800_000_000_000;
export const FRAME_MS = 1000 / 60;

export interface SimOptions {
  room: RoomPlayback;
  /** Player state at the start. */
  mediaTime?: number;
  paused?: boolean;
  /** How long a seek takes to show a frame (ms). */
  seekLatencyMs?: number;
  /**
   * How long after play() the media clock starts to run (ms; Chromium waits for the audio
   * output). Default: the engine's initial guess, so a start lands exactly unless a test says otherwise.
   */
  startLatencyMs?: number;
  /** Server minus local clock at T0 (ms). */
  trueOffset?: number;
  /** Error of the offset estimate given to the engine (ms). */
  offsetError?: number;
  /** The engine has no clock estimate (offset null) until this long after T0; Infinity: never. */
  clockAfterMs?: number;
  /** Local clock speed error in ppm (positive: local runs fast). */
  ppm?: number;
  /** Gaussian noise of the reported media time (ms, standard deviation). */
  noiseMs?: number;
  /** Share of frames with a large measurement outlier (±outlierMs). */
  outlierRate?: number;
  outlierMs?: number;
  seed?: number;
  engine?: SyncEngine;
  /** Frame rate of the video: the engine sees whole frames, once each, at the refresh that shows them. */
  videoFps?: number;
  /** The first refresh comes this long after T0 (the display's phase against the room's frames). */
  refreshPhaseMs?: number;
  /**
   * The media's metadata arrives this long after T0 (default: known from the start). Before it,
   * as in a browser, a seek only records where to start: `seeking` stays false and the media
   * time reads the target at once, and the seek itself runs (its latency) once metadata is in.
   */
  metadataAfterMs?: number;
  /**
   * When set, the player reports buffered ranges: a landed seek buffers this many seconds from
   * its target, and playing keeps that much buffered ahead; a seek into a buffered range takes
   * `bufferedSeekLatencyMs` instead of `seekLatencyMs`.
   */
  bufferAheadS?: number;
  bufferedSeekLatencyMs?: number;
  /**
   * While starting (after play(), before the media clock runs) no frame comes, and the host
   * ticks the engine with `currentTime`, which Chromium runs this far ahead of the screen
   * (`fromFrame: false` samples). Default: no such samples.
   */
  startingCurrentTimeLeadMs?: number;
}

export interface Logged {
  server: number;
  action: PlayerAction;
  /** Whether the player was in a seek when the action was issued. */
  whileSeeking: boolean;
}

export class Sim {
  server = T0;
  room: RoomPlayback;
  readonly engine: SyncEngine;
  mediaTime: number;
  paused: boolean;
  rate = 1;
  seeking = false;
  buffering = false;
  private seekTarget = 0;
  private landAt = 0;
  /** Server time at which the metadata arrives; a seek asked for before it, to run then. */
  private readonly metadataAt: number;
  private deferredSeek: number | null = null;
  /** Buffered ranges [start, end] (s), with `bufferAheadS`. */
  private buffered: Array<[number, number]> = [];
  /** A scheduled start, in server time (the sim's timer fires exactly then). */
  private startAt: number | null = null;
  /** Server time at which the player's media clock last started to run after a pause. */
  startedAt: number | null = null;
  /** The media clock stands still until this server time (start-up after play()). */
  private clockFrom = Number.NEGATIVE_INFINITY;
  readonly log: Logged[] = [];
  readonly results: SyncResult[] = [];
  readonly reports: Array<{ server: number; report: string }> = [];
  private readonly random: () => number;
  /** Index of the frame on screen when `videoFps` is set. */
  private shownFrame: number | null = null;

  constructor(readonly options: SimOptions) {
    this.server = T0 + (options.refreshPhaseMs ?? 0);
    this.room = options.room;
    this.mediaTime = options.mediaTime ?? 0;
    this.paused = options.paused ?? false;
    this.random = rng(options.seed ?? 1);
    this.engine = options.engine ?? new SyncEngine();
    this.metadataAt = T0 + (options.metadataAfterMs ?? Number.NEGATIVE_INFINITY);
  }

  /** The local clock at server time `server`. */
  localAt(server: number): number {
    return server - (this.options.trueOffset ?? 0) + (server - T0) * (this.options.ppm ?? 0) * 1e-6;
  }

  /** Server time at local time `local` (inverse of localAt). */
  serverAt(local: number): number {
    const ppm = (this.options.ppm ?? 0) * 1e-6;
    return (local + (this.options.trueOffset ?? 0) + T0 * ppm) / (1 + ppm);
  }

  /** Wall ms the player is truly behind the room now. */
  lagMs(): number {
    return ((roomPositionAt(this.room, this.server) - this.mediaTime) * 1000) / this.room.rate;
  }

  private gaussian(): number {
    const u = Math.max(1e-12, this.random());
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.random());
  }

  sample(): PlayerSample {
    let noise = (this.options.noiseMs ?? 0) * this.gaussian();
    if (this.random() < (this.options.outlierRate ?? 0)) noise += (this.random() < 0.5 ? -1 : 1) * (this.options.outlierMs ?? 0);
    // The noise is in timing frames on screen: a paused element's currentTime is exact.
    if (this.paused) noise = 0;
    const fps = this.options.videoFps;
    const shown = fps ? Math.floor(this.mediaTime * fps + 1e-6) / fps : this.mediaTime;
    const lead = this.options.startingCurrentTimeLeadMs;
    if (lead !== undefined && !this.paused && this.server < this.clockFrom) {
      return { ...this.sampleAt(shown + lead / 1000), fromFrame: false };
    }
    return this.sampleAt(shown + noise / 1000);
  }

  private sampleAt(mediaTime: number): PlayerSample {
    return {
      mediaTime,
      at: this.localAt(this.server),
      paused: this.paused,
      playbackRate: this.rate,
      seeking: this.seeking,
      buffering: this.buffering,
      hasMetadata: this.server >= this.metadataAt,
      buffered: this.options.bufferAheadS === undefined ? undefined : this.buffered.map(([start, end]) => [start, end] as const),
    };
  }

  apply(action: PlayerAction): void {
    this.log.push({ server: this.server, action, whileSeeking: this.seeking });
    switch (action.type) {
      case 'play':
        if (this.paused) this.begin(this.server);
        this.paused = false;
        this.startAt = null;
        break;
      case 'pause':
        this.paused = true;
        break;
      case 'setRate':
        this.rate = action.rate;
        break;
      case 'seek':
        // A seek while paused cancels a scheduled start (as the player's host does).
        if (this.paused) this.startAt = null;
        if (this.server < this.metadataAt) {
          this.mediaTime = action.position;
          this.deferredSeek = action.position;
          break;
        }
        this.seeking = true;
        this.seekTarget = action.position;
        this.landAt = this.server + this.seekLatency(action.position);
        break;
      case 'scheduleStart':
        this.paused = true;
        this.startAt = this.serverAt(action.at);
        break;
    }
  }

  /** Advances true time by `ms`, moving the media clock (seek landings and a scheduled start happen at their exact instant). */
  advance(ms: number): void {
    const end = this.server + ms;
    while (this.server < end) {
      let next = end;
      if (this.seeking && this.landAt < next) next = Math.max(this.server, this.landAt);
      if (this.startAt !== null && this.startAt < next) next = Math.max(this.server, this.startAt);
      if (this.server < this.metadataAt && this.metadataAt < next) next = this.metadataAt;
      if (!this.paused && !this.seeking && this.server >= this.metadataAt) this.mediaTime += (Math.max(0, next - Math.max(this.server, this.clockFrom)) / 1000) * this.rate;
      this.server = next;
      if (this.deferredSeek !== null && this.server >= this.metadataAt) {
        this.seeking = true;
        this.seekTarget = this.deferredSeek;
        this.landAt = this.metadataAt + (this.options.seekLatencyMs ?? 200);
        this.deferredSeek = null;
      }
      if (this.seeking && this.server >= this.landAt) {
        this.seeking = false;
        this.mediaTime = this.seekTarget;
      }
      this.bufferAround(this.mediaTime);
      if (this.startAt !== null && this.server >= this.startAt) {
        this.startAt = null;
        // As PlayerSync's start timer: not while a seek is still in flight.
        if (this.seeking) this.engine.startMissed();
        else {
          if (this.paused) this.begin(this.server);
          this.paused = false;
        }
      }
    }
  }

  /** How long a seek to `target` takes: quicker into buffered media. */
  private seekLatency(target: number): number {
    const inBuffer = this.buffered.some(([start, end]) => start <= target && target < end);
    return inBuffer ? (this.options.bufferedSeekLatencyMs ?? 30) : (this.options.seekLatencyMs ?? 200);
  }

  /** With `bufferAheadS`, keeps that much buffered from `position` on (once media is there to buffer). */
  private bufferAround(position: number): void {
    const ahead = this.options.bufferAheadS;
    if (ahead === undefined || this.seeking || this.server < this.metadataAt) return;
    const range = this.buffered.find(([start, end]) => start <= position && position <= end);
    if (range) range[1] = Math.max(range[1], position + ahead);
    else this.buffered.push([position, position + ahead]);
  }

  /** Whether this refresh shows a new frame of a playing video (with `videoFps`; otherwise every refresh counts). */
  private newFrame(): boolean {
    const fps = this.options.videoFps;
    if (!fps || this.paused || this.seeking) {
      this.shownFrame = null;
      return true;
    }
    const frame = Math.floor(this.mediaTime * fps + 1e-6);
    if (frame === this.shownFrame) return false;
    this.shownFrame = frame;
    return true;
  }

  /** play() at server time `server`: the clock runs after the start-up latency. */
  private begin(server: number): void {
    this.clockFrom = server + (this.options.startLatencyMs ?? START_LATENCY_INITIAL_MS);
    this.startedAt = this.clockFrom;
  }

  /**
   * One refresh: sample, tick the engine, apply its actions, advance. With `videoFps`, a
   * refresh that shows no new frame only advances (answers null), as rVFC would not fire.
   */
  frame(): SyncResult | null {
    if (!this.newFrame()) {
      this.advance(FRAME_MS);
      return null;
    }
    const now = this.localAt(this.server);
    const known = this.server >= T0 + (this.options.clockAfterMs ?? 0);
    const offset = known ? (this.options.trueOffset ?? 0) + (this.options.offsetError ?? 0) : null;
    const result = this.engine.tick({ room: this.room, offset, player: this.sample(), now });
    this.results.push(result);
    if (result.report) this.reports.push({ server: this.server, report: result.report });
    for (const action of result.actions) this.apply(action);
    this.advance(FRAME_MS);
    return result;
  }

  /** Runs for `seconds` of true time; `each` sees every frame. */
  run(seconds: number, each?: (sim: Sim) => void): void {
    const end = this.server + seconds * 1000;
    while (this.server < end) {
      this.frame();
      each?.(this);
    }
  }

  count(type: PlayerAction['type'], from = 0): number {
    return this.log.filter((entry, i) => i >= from && entry.action.type === type).length;
  }

  /** Seconds of true time from T0 until |lag| stayed under `ms` for good (checked by `run`'s history), or null. */
  settledWithin(history: Array<{ server: number; lag: number }>, ms: number): number | null {
    let last: number | null = null;
    for (const point of history) {
      if (Math.abs(point.lag) >= ms) last = null;
      else last ??= point.server;
    }
    return last === null ? null : (last - T0) / 1000;
  }
}

/** A room playing since `sinceMs` before T0 at `rate`, so it is at `positionAtT0` at T0. */
export function playingRoom(positionAtT0: number, rate = 1, sinceMs = 10_000): RoomPlayback {
  return { mediaId: 'm1', playing: true, position: positionAtT0 - (sinceMs / 1000) * rate, rate, updatedAt: T0 - sinceMs };
}
