/**
 * Keeps mpv in step with the room with the web client's own engine (web/src/sync/engine.ts):
 * what web/src/player/player-sync.ts does for a <video>, for mpv. Each frame mpv reports
 * (`time-pos`) ticks the engine; a timer ticks it while paused or when no frame came for a
 * while, and pings the clock; the engine's actions (play, pause, seek, rate nudges, scheduled
 * starts) go to mpv; readiness and the item's end go to the room. While the person's own
 * command (a key in mpv) is on its way, the engine is held so it does not undo what they did
 * before the room answers.
 */
import type { PlaybackView } from '../../contracts/room/model.js';
import type { PlayerState } from '../../contracts/ws/protocol.js';
import { ClockEstimator, SyncEngine, roomPositionAt, type PlayerAction, type RoomConnection, type SyncPhase } from '../../web/index.js';
import { localNow, type MpvPlayer } from './mpv-player.js';

const TIMER_MS = 50;
const FRAME_SILENCE_MS = 120;
/** Leads of our own play and seek commands, as the web player computes them (player-sync.ts). */
const START_IN_MIN_MS = 250;
const SEEK_START_IN_MIN_MS = 500;
const START_IN_MAX_MS = 1000;

export interface SyncRoom {
  /** The room's playback now (null before the first snapshot). */
  playback(): PlaybackView | null;
  connection: RoomConnection;
}

export class MpvSync {
  phase: SyncPhase = 'idle';
  /** The last drift the engine measured (ms, positive: behind), for the status line. */
  driftMs: number | null = null;
  private readonly clock = new ClockEstimator();
  private readonly engine = new SyncEngine();
  private mediaId: string | null = null;
  private live = false;
  private lastFrameAt = Number.NEGATIVE_INFINITY;
  private lastReport: PlayerState | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null = null;
  private holdUntil = Number.NEGATIVE_INFINITY;
  private readonly stops: Array<() => void> = [];

  constructor(
    private readonly player: MpvPlayer,
    private readonly room: SyncRoom,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.onTimer(), TIMER_MS);
    this.stops.push(
      this.player.onFrame(({ mediaTime, at }) => {
        this.lastFrameAt = localNow();
        this.tick(mediaTime, at);
      }),
      this.player.onWake(() => this.tick(this.player.currentTime, localNow(), false)),
      this.player.onEnded(() => this.ended()),
    );
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clearStart();
    for (const stop of this.stops) stop();
  }

  /** A reconnect may reach another gateway over another path: measure the clock afresh, report again. */
  reconnected(): void {
    if (this.clock.sampleCount > 0) this.clock.reset();
    if (this.lastReport) this.room.connection.reportPlayer(this.lastReport, this.mediaId, this.duration());
  }

  /** mpv now holds `mediaId` (null: nothing); live media follows play and pause only. */
  setMedia(mediaId: string | null, live: boolean): void {
    this.mediaId = mediaId;
    this.live = live;
    this.lastReport = null;
    this.clearStart();
    this.engine.reset();
  }

  /** Holds the engine (the person's command is on its way) until `release()` or `ms` have passed. */
  hold(ms: number): void {
    this.clearStart();
    this.holdUntil = localNow() + ms;
  }

  release(): void {
    this.holdUntil = Number.NEGATIVE_INFINITY;
    this.engine.reset();
    this.tick(this.player.currentTime, localNow(), false);
  }

  /** Server time now, when the clock is known (the `sentAt` of commands). */
  serverNow(): number | undefined {
    const server = this.clock.serverTime(localNow());
    return server === null ? undefined : Math.round(server);
  }

  /** Lead of our play or seek command (the web player's rule). */
  startInMs(kind: 'play' | 'seek'): number {
    const transit = 2 * (this.clock.rtt ?? 0) + this.engine.startLatencyMs;
    const wanted = kind === 'seek' ? Math.max(SEEK_START_IN_MIN_MS, transit + this.engine.seekLatencyMs) : Math.max(START_IN_MIN_MS, transit);
    return Math.round(Math.min(START_IN_MAX_MS, wanted));
  }

  private ended(): void {
    const mediaId = this.mediaId;
    if (!mediaId || this.live) return;
    this.report('ended');
    const duration = this.duration();
    this.room.connection.command({ kind: 'playback.ended', mediaId, ...(duration !== undefined ? { duration } : {}) }).catch(() => undefined);
  }

  private duration(): number | undefined {
    return this.live ? undefined : this.player.duration;
  }

  private onTimer(): void {
    const now = localNow();
    if (this.clock.pingDue(now) && this.room.connection.status.value.state === 'open') {
      this.clock.pinged(now);
      this.room.connection
        .ping(localNow)
        .then((sample) => this.clock.add(sample))
        .catch(() => undefined);
    }
    if (this.player.paused || now - this.lastFrameAt > FRAME_SILENCE_MS) this.tick(this.player.currentTime, now, false);
  }

  private tick(mediaTime: number, at: number, fromFrame = true): void {
    const playback = this.room.playback();
    const player = this.player;
    if (!playback || this.mediaId === null || player.mediaId !== this.mediaId) return;
    const now = localNow();
    if (now < this.holdUntil || player.userActing) return;
    if (this.live) {
      if (playback.playing && player.paused) player.play();
      else if (!playback.playing && !player.paused) player.pause();
      return;
    }
    // At the end mpv stays on the last frame until the room moves on (no replay loop).
    if (player.ended && playback.mediaId === this.mediaId && player.duration !== undefined) {
      if (roomPositionAt(playback, now + (this.clock.offset ?? 0)) >= player.duration - 0.25) return;
    }
    const result = this.engine.tick({
      room: playback,
      offset: this.clock.offset,
      now,
      player: {
        mediaTime,
        at,
        paused: player.paused,
        playbackRate: player.playbackRate,
        seeking: player.seeking,
        buffering: player.buffering,
        duration: player.duration,
        mediaId: this.mediaId,
        hasMetadata: player.hasMetadata,
        fromFrame,
        buffered: player.buffered,
      },
    });
    this.phase = result.phase;
    if (result.driftMs !== null) this.driftMs = result.driftMs;
    for (const action of result.actions) this.apply(action);
    if (result.report) this.report(result.report);
  }

  private apply(action: PlayerAction): void {
    const player = this.player;
    switch (action.type) {
      case 'play':
        this.clearStart();
        player.play();
        break;
      case 'pause':
        this.clearStart();
        player.pause();
        break;
      case 'seek':
        if (player.paused) this.clearStart();
        player.seek(action.position);
        break;
      case 'setRate':
        player.setRate(action.rate);
        break;
      case 'scheduleStart':
        this.clearStart();
        if (!player.paused) player.pause();
        this.startTimer = setTimeout(
          () => {
            this.startTimer = null;
            player.play();
          },
          Math.max(0, action.at - localNow()),
        );
        break;
    }
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
