/**
 * Keeps the player of the current item (a `MediaPlayer`: the <video> element, or an embedded
 * player) in step with the room: samples the frame on screen (the player's frame callback,
 * requestVideoFrameCallback for <video>; a rAF loop over `currentTime` where there is none;
 * never `timeupdate`), feeds the sync engine, applies its actions, keeps the clock estimate
 * fresh and reports readiness. Frames do not come while paused, so a timer ticks the engine
 * too while paused and whenever no frame has come for a while (stalled); and the player's
 * events that end a wait (metadata, a seek landing, data to play) tick it at once: Chromium
 * shows a seek's frame (rVFC) before it clears `seeking`, and waiting for the timer after it
 * cost a late joiner up to 150 ms, which its scheduled start then missed (bench:sync).
 */
import { effect, signal, untracked } from '@preact/signals';
import type { PlayerState, Seekable } from '../../../contracts/room/model.js';
import { onPageBack } from '../realtime/page-back.js';
import type { RoomSession } from '../state/room.js';
import { ClockEstimator, SyncEngine, roomPositionAt, type PlayerAction, type RoomPlayback, type SyncPhase } from '../sync/index.js';
import { localNow } from './clock.js';
import { createStats, recordAction, recordBack, recordClock, recordConnection, recordEvents, recordFrame, recordTick } from './debug-stats.js';
import type { MediaPlayer } from './players/media-player.js';
import { seekTarget } from './seek-guard.js';
import { rememberedStartLatency, rememberStartLatency } from './start-latency.js';

/** The timer path's period, and how long without a frame before it takes over. */
const TIMER_MS = 50;
const FRAME_SILENCE_MS = 120;
/**
 * Lead of a scheduled start for our own play and seek commands: every member must get the
 * command, and for a seek also land it, before the instant. The server allows up to 2 s.
 */
const START_IN_MIN_MS = 250;
/** A seek's lead also covers fetching and decoding at the new position (bench:sync: 120-200 ms from a local server, more for a member far away). */
const SEEK_START_IN_MIN_MS = 500;
const START_IN_MAX_MS = 1000;
/** How long our own pause holds the player without the room's word on it (pauseNow). */
const OWN_PAUSE_HOLD_MS = 5000;

/** What identifies the room's playback as it stands: a change of it is a command applied. */
const playbackKeyOf = (playback: RoomPlayback | undefined): string =>
  playback ? `${playback.mediaId}|${playback.playing}|${playback.position}|${playback.rate}|${playback.updatedAt}` : '';

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
  private current: MediaPlayer;
  private mediaId: string | null = null;
  private live = false;
  private lastFrameAt = Number.NEGATIVE_INFINITY;
  private lastReport: PlayerState | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null = null;
  private stopStatus: (() => void) | null = null;
  private stopPlaybackWatch: (() => void) | null = null;
  private stopBack: (() => void) | null = null;
  /** Undoes what watches the current player (frames, its events). */
  private unwatch: (() => void) | null = null;
  private readonly wake = (): void => this.tick(this.player.currentTime, localNow(), false);
  private started = false;
  private stopped = false;
  /** The room's playback as this player last acted on it (playbackKeyOf). */
  private playbackKey = '';
  /**
   * Our own pause, already applied to the player (pauseNow): held until the room's playback
   * changes from what it was at the click, the command is refused, or `until` passes.
   */
  private ownPause: { key: string; until: number } | null = null;

  constructor(
    player: MediaPlayer,
    private readonly room: RoomSession,
  ) {
    this.current = player;
    this.engine.setSmoothRate(player.smoothRate);
  }

  /** The player now in use (the controls set its volume). */
  get player(): MediaPlayer {
    return this.current;
  }

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.onTimer(), TIMER_MS);
    this.watch();
    let wasOpen = false;
    // A reconnect may reach another gateway over another path: measure the clock afresh and
    // tell the room our state again. The element keeps playing; the engine corrects gently.
    this.stopStatus = effect(() => {
      const status = this.room.connection.status.value;
      recordConnection(this.stats, localNow(), status.state, status.state === 'connecting' ? (status.cause ?? null) : null);
      const open = status.state === 'open';
      if (open && !wasOpen) {
        if (this.clock.sampleCount > 0) this.clock.reset();
        if (this.lastReport) this.room.connection.reportPlayer(this.lastReport, this.mediaId, this.duration());
      }
      wasOpen = open;
    });
    // A pause, a play or a seek from the room is acted on when its event arrives, not at the
    // next frame or timer tick (up to a frame, or 50 ms when paused, later): bench:sync's
    // pause is timed from the click to every other page's player.pause().
    this.stopPlaybackWatch = effect(() => {
      const key = playbackKeyOf(this.room.view.value?.playback);
      if (key === this.playbackKey) return;
      this.playbackKey = key;
      if (this.ownPause && this.ownPause.key !== key) this.ownPause = null;
      untracked(() => this.tick(this.player.currentTime, localNow(), false));
    });
    const networkBack = (): void => this.recoverMedia();
    const stopPageBack = onPageBack(() => this.pageBack());
    window.addEventListener('online', networkBack);
    this.stopBack = () => {
      stopPageBack();
      window.removeEventListener('online', networkBack);
    };
  }

  /**
   * A media element that ran out of buffer while the network was gone has failed for good
   * (MEDIA_ERR_NETWORK: bench:background, offline for a minute): with the network or the page
   * back, load its source again; the engine then seeks it to the room as for a late joiner.
   * Only a plain source: hls.js and dash.js (a blob: MediaSource) retry by themselves.
   */
  private recoverMedia(): void {
    const element = this.player.element;
    if (!element || element.error?.code !== MediaError.MEDIA_ERR_NETWORK) return;
    if (!element.currentSrc || element.currentSrc.startsWith('blob:')) return;
    this.engine.reset();
    element.load();
  }

  /**
   * The page is back from the background (docs/2026-11-29-background-resume.md). The clock
   * estimate may be wrong by the time away (a phone's monotonic clock stops while the device
   * sleeps, so server minus local moved by that much) and the engine's drift window describes
   * the player before it: both start over, so the first tick with a fresh clock sample (one
   * round trip; the burst pings at once) seeks to the room's position when it is far, instead
   * of a stale median holding the correction back or aiming it with the old offset. A start
   * scheduled with the old offset is dropped; the engine schedules again.
   */
  private pageBack(): void {
    recordBack(this.stats, localNow());
    this.recoverMedia();
    this.clock.reset();
    this.clearStart();
    this.engine.resume();
    this.lastFrameAt = Number.NEGATIVE_INFINITY;
    this.onTimer();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.clearStart();
    this.unwatch?.();
    this.unwatch = null;
    this.stopStatus?.();
    this.stopPlaybackWatch?.();
    this.stopBack?.();
  }

  /**
   * Another player shows the items from now on (a YouTube item after a file, or back): the
   * engine forgets the media state and corrects the way this player can.
   */
  setPlayer(player: MediaPlayer): void {
    if (player === this.current) return;
    this.unwatch?.();
    this.unwatch = null;
    this.current = player;
    this.engine.setSmoothRate(player.smoothRate);
    this.setMedia(null, this.live);
    if (this.started && !this.stopped) this.watch();
  }

  /** Frames, wake-ups and the end of the current player, and its events for the debug stats. */
  private watch(): void {
    const player = this.player;
    const stopEvents = player.element ? recordEvents(this.stats, player.element, localNow) : null;
    const stopWake = player.onWake(this.wake);
    const stopEnded = player.onEnded(() => this.ended());
    const stopFrames = this.watchFrames(player);
    this.unwatch = () => {
      stopEvents?.();
      stopWake();
      stopEnded();
      stopFrames();
    };
  }

  /** The element now holds `mediaId` (null: nothing); live media is played, not synchronized. */
  setMedia(mediaId: string | null, live: boolean): void {
    this.mediaId = mediaId;
    this.live = live;
    this.lastReport = null;
    this.clearStart();
    this.engine.reset();
  }

  /** Where the room is in `mediaId` now (seconds), when it plays that item and the clock is known. */
  roomPosition(mediaId: string): number | undefined {
    const playback = this.room.view.value?.playback;
    const now = this.serverNow();
    if (!playback || playback.mediaId !== mediaId || now === undefined) return undefined;
    return roomPositionAt(playback, now);
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

  /**
   * Our own pause command, `answer` its answer: the player pauses at the click, where the
   * command says the room pauses, rather than when the room's word comes back a round trip
   * later. Until then the room still plays: the engine would start the player again, and at
   * the word seek it back by the round trip. So nothing acts on the player until the room's
   * playback changes (our pause, or whatever came before it), or the command is refused (the
   * engine then puts the player back in step with the room).
   */
  pauseNow(answer: Promise<unknown>): void {
    this.ownPause = { key: this.playbackKey, until: localNow() + OWN_PAUSE_HOLD_MS };
    // A start the room scheduled (a play just before) must not fire over it either.
    this.clearStart();
    if (!this.player.paused) this.player.pause();
    answer.catch(() => {
      this.ownPause = null;
      this.wake();
    });
  }

  /** A command this player sent (the bench times a pause from here to its effect elsewhere). */
  sent(kind: string): void {
    if (kind === 'playback.pause') this.stats?.pauseSentAt.push(localNow());
  }

  /** The click on "Click to join playback": a user gesture, so play() is allowed from now on. */
  join(): void {
    this.blocked.value = false;
    this.engine.reset();
    this.tick(this.player.currentTime, localNow(), false);
    // Within the gesture: a room that plays starts here at once, the engine then aligns it.
    if (this.player.paused && this.room.view.value?.playback.playing) this.play();
  }

  /**
   * The player reached the end: every viewer reports it with the length it saw, and the room
   * goes on by its queue mode once its own clock is there too (a refused early report is
   * harmless: the engine puts this player back in step and it ends again with the room).
   */
  private ended(): void {
    const mediaId = this.mediaId;
    if (!mediaId) return;
    this.report('ended');
    const duration = this.duration();
    this.room.send({ kind: 'playback.ended', mediaId, ...(duration !== undefined ? { duration } : {}) }).catch(() => undefined);
  }

  /** The media's length once the element knows it (live media has none). */
  private duration(): number | undefined {
    return this.live ? undefined : this.player.duration;
  }

  /** Ticks the engine with every frame the player shows; returns how to stop. */
  private watchFrames(player: MediaPlayer): () => void {
    if (player.watchFrames) {
      return player.watchFrames(({ mediaTime, at }) => {
        this.lastFrameAt = localNow();
        recordFrame(this.stats, mediaTime, at);
        this.tick(mediaTime, at);
      });
    }
    // No frame callback: sample currentTime once per animation frame (coarser, still not timeupdate's 4 Hz).
    let handle = 0;
    const next = (): void => {
      handle = requestAnimationFrame(() => {
        if (!player.paused) {
          this.lastFrameAt = localNow();
          recordFrame(this.stats, player.currentTime, this.lastFrameAt);
          this.tick(player.currentTime, this.lastFrameAt);
        }
        next();
      });
    };
    next();
    return () => cancelAnimationFrame(handle);
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
    if (this.player.paused || now - this.lastFrameAt > FRAME_SILENCE_MS) this.tick(this.player.currentTime, now, false);
  }

  /** `fromFrame`: the sample is a frame on screen (rVFC, or the rAF fallback's best); false: `currentTime` between frames. */
  private tick(mediaTime: number, at: number, fromFrame = true): void {
    const playback = this.room.view.value?.playback ?? null;
    const player = this.player;
    // Until the click on "Click to join playback" nothing can start: seeking on would only
    // churn the player (join() takes over from where it stands).
    if (!playback || this.mediaId === null || this.blocked.peek()) return;
    if (this.ownPause) {
      if (localNow() < this.ownPause.until) return;
      this.ownPause = null;
    }
    if (this.live) {
      // Live media has no shared position: only follow play and pause.
      if (playback.playing && player.paused) this.play();
      else if (!playback.playing && !player.paused) player.pause();
      return;
    }
    const now = localNow();
    // At the end the player stays ended until the room moves on (no replay loop).
    if (player.ended && playback.mediaId === this.mediaId && player.duration !== undefined) {
      const offset = this.clock.offset ?? 0;
      if (roomPositionAt(playback, now + offset) >= player.duration - 0.25) return;
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
        // Without a frame callback every sample is currentTime, and the best there is.
        fromFrame: fromFrame || !player.watchFrames,
        buffered: player.buffered,
      },
    });
    if (this.phase.peek() !== result.phase) this.phase.value = result.phase;
    recordTick(this.stats, now, result.driftMs, result.phase);
    for (const action of result.actions) this.apply(action, result.phase);
    if (result.report) this.report(result.report);
  }

  private apply(action: PlayerAction, phase: SyncPhase): void {
    recordAction(this.stats, localNow(), action, phase);
    const player = this.player;
    switch (action.type) {
      case 'play':
        this.clearStart();
        this.play();
        break;
      case 'pause':
        this.clearStart();
        player.pause();
        break;
      case 'seek': {
        const target = seekTarget(player.cannotSeek, this.seekable, action.position);
        if (target === null) {
          // Media that cannot jump: a viewer who arrives while it plays watches from where the
          // player can be, rather than holding paused for a seek that will never land.
          if (this.room.view.value?.playback.playing && player.paused) this.play();
          break;
        }
        if (player.paused) this.clearStart();
        player.seek(target);
        break;
      }
      case 'setRate':
        player.setRate(action.rate);
        break;
      case 'scheduleStart':
        this.clearStart();
        if (!player.paused) player.pause();
        this.startTimer = setTimeout(
          () => {
            this.startTimer = null;
            if (player.seeking) this.engine.startMissed();
            else this.play();
          },
          Math.max(0, action.at - localNow()),
        );
        break;
    }
  }

  private play(): void {
    if (this.blocked.peek()) return;
    this.player.play().catch((error: unknown) => {
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
