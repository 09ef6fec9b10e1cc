/**
 * The `<video>` element as a `MediaPlayer`: files, HLS (native or hls.js), FLV (mpegts.js) and
 * DASH (dash.js) all end up in it. Frames come from requestVideoFrameCallback, which reports
 * the media time of each frame and when it is shown; where a browser lacks it, `watchFrames`
 * is null and the sync samples `currentTime` per animation frame.
 */
import type { MediaPlayer, PlayerFrame } from './media-player.js';
import { elementCannotSeek } from '../seek-guard.js';

type FrameMeta = { mediaTime: number; expectedDisplayTime: number };
/** rVFC is missing in older browsers (Firefox before 132), though the DOM types declare it. */
type FrameVideo = Omit<HTMLVideoElement, 'requestVideoFrameCallback' | 'cancelVideoFrameCallback'> & {
  requestVideoFrameCallback?(callback: (now: number, meta: FrameMeta) => void): number;
  cancelVideoFrameCallback?(handle: number): void;
};

/** Element events after which the engine may act at once (a wait ended). */
const WAKE_EVENTS = ['loadedmetadata', 'seeked', 'canplay'] as const;

function rangesOf(ranges: TimeRanges): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < ranges.length; i++) out.push([ranges.start(i), ranges.end(i)]);
  return out;
}

export class VideoPlayer implements MediaPlayer {
  readonly kind = 'video';
  readonly smoothRate = true;
  readonly watchFrames: MediaPlayer['watchFrames'];

  constructor(readonly element: HTMLVideoElement) {
    const video: FrameVideo = element;
    this.watchFrames = video.requestVideoFrameCallback ? (callback) => this.frames(video, callback) : null;
  }

  get currentTime(): number {
    return this.element.currentTime;
  }
  get paused(): boolean {
    return this.element.paused;
  }
  get playbackRate(): number {
    return this.element.playbackRate;
  }
  get seeking(): boolean {
    return this.element.seeking;
  }
  get buffering(): boolean {
    return this.element.readyState < HTMLMediaElement.HAVE_FUTURE_DATA && !this.element.paused;
  }
  get hasMetadata(): boolean {
    return this.element.readyState >= HTMLMediaElement.HAVE_METADATA;
  }
  get duration(): number | undefined {
    const duration = this.element.duration;
    return Number.isFinite(duration) && duration > 0 ? duration : undefined;
  }
  get ended(): boolean {
    return this.element.ended;
  }
  get buffered(): Array<[number, number]> {
    return rangesOf(this.element.buffered);
  }
  get cannotSeek(): boolean {
    return elementCannotSeek(this.element);
  }
  get volume(): number {
    return this.element.volume;
  }
  set volume(value: number) {
    this.element.volume = value;
  }
  get muted(): boolean {
    return this.element.muted;
  }
  set muted(value: boolean) {
    this.element.muted = value;
  }

  play(): Promise<void> {
    return this.element.play();
  }
  pause(): void {
    this.element.pause();
  }
  seek(position: number): void {
    this.element.currentTime = position;
  }
  setRate(rate: number): void {
    this.element.playbackRate = rate;
  }

  onWake(callback: () => void): () => void {
    for (const type of WAKE_EVENTS) this.element.addEventListener(type, callback);
    return () => {
      for (const type of WAKE_EVENTS) this.element.removeEventListener(type, callback);
    };
  }

  onEnded(callback: () => void): () => void {
    this.element.addEventListener('ended', callback);
    return () => this.element.removeEventListener('ended', callback);
  }

  private frames(video: FrameVideo, callback: (frame: PlayerFrame) => void): () => void {
    let handle: number | null = null;
    let stopped = false;
    const next = (): void => {
      handle = video.requestVideoFrameCallback!((_now, meta) => {
        callback({ mediaTime: meta.mediaTime, at: performance.timeOrigin + meta.expectedDisplayTime });
        if (!stopped) next();
      });
    };
    next();
    return () => {
      stopped = true;
      if (handle !== null) video.cancelVideoFrameCallback?.(handle);
    };
  }
}
