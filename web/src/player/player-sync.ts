/**
 * Keeps one <video> element in step with the room: samples the frame on screen
 * (requestVideoFrameCallback; a rAF loop over `currentTime` where that is missing; never
 * `timeupdate`), feeds the sync engine, applies its actions, keeps the clock estimate fresh and
 * reports readiness. rVFC does not fire while paused, so a timer ticks the engine too while
 * paused and whenever no frame has come for a while (stalled); and the element's events that
 * end a wait (metadata, a seek landing, data to play) tick it at once: Chromium shows a seek's
 * frame (rVFC) before it clears `seeking`, and waiting for the timer after it cost a late
 * joiner up to 150 ms, which its scheduled start then missed (bench:sync).
 */
import { effect, signal } from '@preact/signals';
import type { PlayerState, Seekable } from '../../../contracts/room/model.js';
import type { RoomSession } from '../state/room.js';
import { ClockEstimator, SyncEngine, roomPositionAt, type PlayerAction, type SyncPhase } from '../sync/index.js';
import { localNow } from './clock.js';
import { createStats, recordAction, recordClock, recordEvents, recordFrame, recordTick } from './debug-stats.js';
import { seekTarget } from './seek-guard.js';
import { rememberedStartLatency, rememberStartLatency } from './start-latency.js';

/** The timer path's period, and how long without a frame before it takes over. */
const TIMER_MS = 50;
const FRAME_SILENCE_MS = 120;
/** Element events after which the engine may act at once (a wait ended). */
const WAKE_EVENTS = ['loadedmetadata', 'seeked', 'canplay'] as const;
/**
 * Lead of a scheduled start for our own play and seek commands: every member must get the
 * command, and for a seek also land it, before the instant. The server allows up to 2 s.
 */
const START_IN_MIN_MS = 250;
/** A seek's lead also covers fetching and decoding at the new position (bench:sync: 120-200 ms from a local server, more for a member far away). */
const SEEK_START_IN_MIN_MS = 500;
const START_IN_MAX_MS = 1000;

type FrameMeta = { mediaTime: number; expectedDisplayTime: number };
type FrameVideo = HTMLVideoElement & { requestVideoFrameCallback?(callback: (now: number, meta: FrameMeta) => void): number; cancelVideoFrameCallback?(handle: number): void };

function rangesOf(ranges: TimeRanges): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i++) out.push([ranges.start(i), ranges.end(i)]);
  return out;
}

export class PlayerSync {
  /** play() was refused by the autoplay policy: the page asks for a click. */
  readonly blocked = signal(false);
  readonly phase = signal<SyncPhase>('idle');
  /** What the room says about the current item's seeking: in media that cannot seek, the engine's seeks are dropped (seek-guard.ts). */
  seekable: Seekable | null = null;
  private readonly clock = new ClockEstimator();
  private readonly engine = new SyncEngine({ startLatencyMs: rememberedStartLatency() });
  /** What localStorage holds of the engine's learned start-up latency (saved when it changes). */
  private savedStartLatency = this.engine.startLatencyMs;
  private readonly stats = createStats();
  private readonly video: FrameVideo;
  private mediaId: string | null = null;
  private live = false;
  private lastFrameAt = Number.NEGATIVE_INFINITY;
  private lastReport: PlayerState | null = null;
  private frameHandle: number | null = null;
  private rafHandle: number | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null = null;
  private stopStatus: (() => void) | null = null;
  private stopEvents: (() => void) | null = null;
  private readonly wake = (): void => this.tick(this.video.currentTime, localNow(), false);
  private stopped = false;

  constructor(
    video: HTMLVideoElement,
    private readonly room: RoomSession,
  ) {
    this.video = video;
  }

  start(): void {
    this.timer = setInterval(() => this.onTimer(), TIMER_MS);
    this.stopEvents = recordEvents(this.stats, this.video, localNow);
    for (const type of WAKE_EVENTS) this.video.addEventListener(type, this.wake);
    this.requestFrame();
    let wasOpen = false;
    // A reconnect may reach another gateway over another path: measure the clock afresh and
    // tell the room our state again. The element keeps playing; the engine corrects gently.
    this.stopStatus = effect(() => {
      const open = this.room.connection.status.value.state === 'open';
      if (open && !wasOpen) {
        if (this.clock.sampleCount > 0) this.clock.reset();
        if (this.lastReport) this.room.connection.reportPlayer(this.lastReport, this.mediaId, this.duration());
      }
      wasOpen = open;
    });
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.clearStart();
    if (this.frameHandle !== null) this.video.cancelVideoFrameCallback?.(this.frameHandle);
    if (this.rafHandle !== null) cancelAnimationFrame(this.rafHandle);
    this.stopStatus?.();
    this.stopEvents?.();
    for (const type of WAKE_EVENTS) this.video.removeEventListener(type, this.wake);
  }

  /** The element now holds `mediaId` (null: nothing); live media is played, not synchronized. */
  setMedia(mediaId: string | null, live: boolean): void {
    this.mediaId = mediaId;
    this.live = live;
    this.lastReport = null;
    this.clearStart();
    this.engine.reset();
  }

  /** Server time now, when the clock is known (the `sentAt` of commands). */
  serverNow(): number | undefined {
    const server = this.clock.serverTime(localNow());
    return server === null ? undefined : Math.round(server);
  }

  /**
   * How far ahead our play or seek command schedules the start: twice our round trip (members
   * further away than us are covered by the minimum) plus what starting, and for a seek
   * landing, takes here, within bounds.
   */
  startInMs(kind: 'play' | 'seek'): number {
    const transit = 2 * (this.clock.rtt ?? 0) + this.engine.startLatencyMs;
    const wanted = kind === 'seek' ? Math.max(SEEK_START_IN_MIN_MS, transit + this.engine.seekLatencyMs) : Math.max(START_IN_MIN_MS, transit);
    return Math.round(Math.min(START_IN_MAX_MS, wanted));
  }

  /** A command this player sent (the bench times a pause from here to its effect elsewhere). */
  sent(kind: string): void {
    if (kind === 'playback.pause') this.stats?.pauseSentAt.push(localNow());
  }

  /** The click on "Click to join playback": a user gesture, so play() is allowed from now on. */
  join(): void {
    this.blocked.value = false;
    this.engine.reset();
    this.tick(this.video.currentTime, localNow(), false);
    // Within the gesture: a room that plays starts here at once, the engine then aligns it.
    if (this.video.paused && this.room.view.value?.playback.playing) this.play();
  }

  /**
   * The element reached the end: every viewer reports it with the length it saw, and the room
   * goes on by its queue mode once its own clock is there too (a refused early report is
   * harmless: the engine puts this player back in step and it ends again with the room).
   */
  ended(): void {
    const mediaId = this.mediaId;
    if (!mediaId) return;
    this.report('ended');
    const duration = this.duration();
    this.room.send({ kind: 'playback.ended', mediaId, ...(duration !== undefined ? { duration } : {}) }).catch(() => undefined);
  }

  /** The media's length once the element knows it (live media has none). */
  private duration(): number | undefined {
    const duration = this.video.duration;
    return !this.live && Number.isFinite(duration) && duration > 0 ? duration : undefined;
  }

  private requestFrame(): void {
    if (this.stopped) return;
    const video = this.video;
    if (video.requestVideoFrameCallback) {
      this.frameHandle = video.requestVideoFrameCallback((_now, meta) => {
        const at = performance.timeOrigin + meta.expectedDisplayTime;
        this.lastFrameAt = localNow();
        recordFrame(this.stats, meta.mediaTime, at);
        this.tick(meta.mediaTime, at);
        this.requestFrame();
      });
      return;
    }
    // No rVFC: sample currentTime once per animation frame (coarser, still not timeupdate's 4 Hz).
    this.rafHandle = requestAnimationFrame(() => {
      if (!video.paused) {
        this.lastFrameAt = localNow();
        this.tick(video.currentTime, this.lastFrameAt);
      }
      this.requestFrame();
    });
  }

  private onTimer(): void {
    const now = localNow();
    if (this.engine.startLatencyMs !== this.savedStartLatency) {
      this.savedStartLatency = this.engine.startLatencyMs;
      rememberStartLatency(this.savedStartLatency);
    }
    if (this.clock.pingDue(now) && this.room.connection.status.value.state === 'open') {
      this.clock.pinged(now);
      this.room.connection
        .ping(localNow)
        .then((sample) => {
          this.clock.add(sample);
          recordClock(this.stats, localNow(), sample, this.clock.offset);
        })
        .catch(() => undefined);
    }
    if (this.video.paused || now - this.lastFrameAt > FRAME_SILENCE_MS) this.tick(this.video.currentTime, now, false);
  }

  /** `fromFrame`: the sample is a frame on screen (rVFC, or the rAF fallback's best); false: `currentTime` between frames. */
  private tick(mediaTime: number, at: number, fromFrame = true): void {
    const playback = this.room.view.value?.playback ?? null;
    const video = this.video;
    // Until the click on "Click to join playback" nothing can start: seeking on would only
    // churn the element (join() takes over from where it stands).
    if (!playback || this.mediaId === null || this.blocked.peek()) return;
    if (this.live) {
      // Live media has no shared position: only follow play and pause.
      if (playback.playing && video.paused) this.play();
      else if (!playback.playing && !video.paused) video.pause();
      return;
    }
    const now = localNow();
    // At the end the element stays ended until the room moves on (no replay loop).
    if (video.ended && playback.mediaId === this.mediaId) {
      const offset = this.clock.offset ?? 0;
      if (roomPositionAt(playback, now + offset) >= video.duration - 0.25) return;
    }
    const result = this.engine.tick({
      room: playback,
      offset: this.clock.offset,
      now,
      player: {
        mediaTime,
        at,
        paused: video.paused,
        playbackRate: video.playbackRate,
        seeking: video.seeking,
        buffering: video.readyState < 3 && !video.paused,
        duration: Number.isFinite(video.duration) ? video.duration : undefined,
        mediaId: this.mediaId,
        hasMetadata: video.readyState >= HTMLMediaElement.HAVE_METADATA,
        // Without rVFC every sample is currentTime, and the best there is.
        fromFrame: fromFrame || !video.requestVideoFrameCallback,
        buffered: rangesOf(video.buffered),
      },
    });
    if (this.phase.peek() !== result.phase) this.phase.value = result.phase;
    recordTick(this.stats, now, result.driftMs, result.phase);
    for (const action of result.actions) this.apply(action, result.phase);
    if (result.report) this.report(result.report);
  }

  private apply(action: PlayerAction, phase: SyncPhase): void {
    recordAction(this.stats, localNow(), action, phase);
    const video = this.video;
    switch (action.type) {
      case 'play':
        this.clearStart();
        this.play();
        break;
      case 'pause':
        this.clearStart();
        video.pause();
        break;
      case 'seek': {
        const target = seekTarget(video, this.seekable, action.position);
        if (target === null) {
          // Media that cannot jump: a viewer who arrives while it plays watches from where the
          // element can be, rather than holding paused for a seek that will never land.
          if (this.room.view.value?.playback.playing && video.paused) this.play();
          break;
        }
        if (video.paused) this.clearStart();
        video.currentTime = target;
        break;
      }
      case 'setRate':
        video.playbackRate = action.rate;
        break;
      case 'scheduleStart':
        this.clearStart();
        if (!video.paused) video.pause();
        this.startTimer = setTimeout(
          () => {
            this.startTimer = null;
            this.play();
          },
          Math.max(0, action.at - localNow()),
        );
        break;
    }
  }

  private play(): void {
    if (this.blocked.peek()) return;
    this.video.play().catch((error: unknown) => {
      // Refused without a user gesture: ask for one rather than falling back to muted play.
      if (error instanceof DOMException && error.name === 'NotAllowedError') this.blocked.value = true;
    });
  }

  private report(state: PlayerState): void {
    this.lastReport = state;
    this.room.connection.reportPlayer(state, this.mediaId, this.duration());
  }

  private clearStart(): void {
    if (this.startTimer) clearTimeout(this.startTimer);
    this.startTimer = null;
  }
}
