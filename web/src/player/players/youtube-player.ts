/**
 * YouTube's embedded player as a `MediaPlayer`. The adapter is thin: YouTube offers no frame
 * callback and a handful of fixed rates, so the sync corrects it by seeking (`smoothRate`
 * false), and the API reports the position a few times a second: between reports the position
 * is extrapolated from the last change at the player's rate.
 *
 * The adapter makes the iframe itself (the API's documented alternative to letting `YT.Player`
 * make it): `referrerpolicy` must send the page's origin, which YouTube requires of embeds,
 * while svc's pages otherwise send no Referer to other sites; and `allow="autoplay"` lets the
 * "Click to join playback" gesture on the page start the frame's video.
 */
import { localNow } from '../clock.js';
import type { MediaPlayer } from './media-player.js';
import { loadYouTubeApi, STATE, youTubeError, type YTPlayer } from './youtube-api.js';
import { t } from '../../i18n/i18n.js';

/** play() that has not started after this long is taken as refused by the autoplay policy. */
const PLAY_REFUSED_AFTER_MS = 3000;
/** A seek has landed once the reported position is this close to its target. */
const SEEK_LANDED_S = 1;
/** A seek that never reports landing stops counting as in flight after this long. */
const SEEK_GIVE_UP_MS = 5000;

export interface YouTubeEmbed {
  script: string;
  frameOrigin: string;
}

export class YouTubePlayer implements MediaPlayer {
  readonly kind = 'youtube';
  readonly smoothRate = false;
  readonly watchFrames = null;
  readonly buffered = undefined;
  readonly cannotSeek = false;
  private state: number = STATE.UNSTARTED;
  /** The last position the API reported, and when it changed (local ms). */
  private reported = 0;
  private reportedAt = 0;
  private seekTarget: number | null = null;
  private seekAt = 0;
  private readonly wakes = new Set<() => void>();
  private readonly ends = new Set<() => void>();
  private readonly starts = new Set<() => void>();

  private constructor(
    private readonly player: YTPlayer,
    private readonly frame: HTMLIFrameElement,
  ) {}

  /** A player for `videoId` in `host`, once YouTube says it is ready; `failed` hears its errors. */
  static async create(host: HTMLElement, embed: YouTubeEmbed, videoId: string, failed: (message: string) => void): Promise<YouTubePlayer> {
    const YT = await loadYouTubeApi(embed.script);
    const frame = document.createElement('iframe');
    const params = new URLSearchParams({ enablejsapi: '1', controls: '0', disablekb: '1', playsinline: '1', rel: '0', origin: location.origin });
    frame.src = `${embed.frameOrigin}/embed/${encodeURIComponent(videoId)}?${params.toString()}`;
    frame.allow = 'autoplay; encrypted-media; picture-in-picture';
    frame.referrerPolicy = 'strict-origin-when-cross-origin';
    frame.title = t('player.youtube.frame');
    frame.className = 'player-embed-frame';
    host.append(frame);
    let adapter: YouTubePlayer | null = null;
    return new Promise<YouTubePlayer>((resolve) => {
      const player = new YT.Player(frame, {
        events: {
          onReady: () => {
            adapter = new YouTubePlayer(player, frame);
            resolve(adapter);
          },
          onStateChange: (event) => adapter?.changed(event.data),
          onError: (event) => failed(t('player.youtube.playFailed', { reason: youTubeError(event.data) })),
        },
      });
    });
  }

  get currentTime(): number {
    const now = localNow();
    const raw = this.player.getCurrentTime();
    if (raw !== this.reported) {
      this.reported = raw;
      this.reportedAt = now;
      if (this.seekTarget !== null && Math.abs(raw - this.seekTarget) <= SEEK_LANDED_S) this.seekTarget = null;
    }
    if (this.state !== STATE.PLAYING) return raw;
    return raw + ((now - this.reportedAt) / 1000) * this.player.getPlaybackRate();
  }
  get paused(): boolean {
    return this.state !== STATE.PLAYING && this.state !== STATE.BUFFERING;
  }
  get playbackRate(): number {
    return this.player.getPlaybackRate();
  }
  get seeking(): boolean {
    if (this.seekTarget !== null && localNow() - this.seekAt > SEEK_GIVE_UP_MS) this.seekTarget = null;
    return this.seekTarget !== null;
  }
  get buffering(): boolean {
    return this.state === STATE.BUFFERING;
  }
  get hasMetadata(): boolean {
    return this.player.getDuration() > 0;
  }
  get duration(): number | undefined {
    const duration = this.player.getDuration();
    return duration > 0 ? duration : undefined;
  }
  get ended(): boolean {
    return this.state === STATE.ENDED;
  }
  get volume(): number {
    return this.player.getVolume() / 100;
  }
  set volume(value: number) {
    this.player.setVolume(Math.round(value * 100));
  }
  get muted(): boolean {
    return this.player.isMuted();
  }
  set muted(value: boolean) {
    if (value) this.player.mute();
    else this.player.unMute();
  }

  play(): Promise<void> {
    if (!this.paused) return Promise.resolve();
    this.player.playVideo();
    return new Promise<void>((resolve, reject) => {
      const started = (): void => {
        clearTimeout(timer);
        this.starts.delete(started);
        resolve();
      };
      const timer = setTimeout(() => {
        this.starts.delete(started);
        if (this.paused) reject(new DOMException('the embedded player did not start', 'NotAllowedError'));
        else resolve();
      }, PLAY_REFUSED_AFTER_MS);
      this.starts.add(started);
    });
  }
  pause(): void {
    this.player.pauseVideo();
  }
  seek(position: number): void {
    this.seekTarget = position;
    this.seekAt = localNow();
    this.player.seekTo(position, true);
  }
  setRate(rate: number): void {
    // YouTube has a few rates: the nearest one (the room's rate is one of them in practice).
    const rates = this.player.getAvailablePlaybackRates();
    const nearest = rates.reduce((best, candidate) => (Math.abs(candidate - rate) < Math.abs(best - rate) ? candidate : best), 1);
    if (nearest !== this.player.getPlaybackRate()) this.player.setPlaybackRate(nearest);
  }
  onWake(callback: () => void): () => void {
    this.wakes.add(callback);
    return () => this.wakes.delete(callback);
  }
  onEnded(callback: () => void): () => void {
    this.ends.add(callback);
    return () => this.ends.delete(callback);
  }

  destroy(): void {
    this.player.destroy();
    this.frame.remove();
  }

  private changed(state: number): void {
    this.state = state;
    // A new state restarts the extrapolation from what the player says now.
    this.reported = this.player.getCurrentTime();
    this.reportedAt = localNow();
    if (state === STATE.PLAYING || state === STATE.BUFFERING) for (const started of [...this.starts]) started();
    if (state === STATE.ENDED) for (const ended of this.ends) ended();
    for (const wake of this.wakes) wake();
  }
}
