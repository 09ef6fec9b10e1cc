/**
 * mpv as a player of the sync engine (web/src/sync/engine.ts), the way the web client's
 * `MediaPlayer` wraps a <video>: time from mpv's `time-pos` (observed: mpv reports it once per
 * frame shown, so each change is a frame and the instant it arrived), paused from `pause`,
 * rate from `speed`, seeks as `seek <t> absolute+exact`, stalls from `paused-for-cache`.
 *
 * It also tells what the person did with mpv's own keys (or its on-screen controller) from what
 * the engine did: a `pause` change that is not one we asked for in the last moments, or a `seek`
 * event that does not follow one of our seeks, is the person's, and is reported once it has
 * landed (`onUserPause`, `onUserSeek`) so the room can be asked to follow (or mpv put back).
 */
import type { MpvEvent, MpvIpc } from './mpv-ipc.js';

/** Local ms: the clock frames and clock pings are timed with (web/src/player/clock.ts uses the same). */
export const localNow = (): number => performance.timeOrigin + performance.now();

/** A change we asked for is recognised for this long (its property-change event follows within a few ms). */
const OURS_MS = 1500;
/** Near the end a pause is mpv's keep-open stopping at the last frame, not a person. */
const END_MARGIN_S = 0.5;

export interface MpvFrame {
  mediaTime: number;
  at: number;
}

export interface LoadRequest {
  mediaId: string;
  /** An http(s) URL or a local file path (`--file`), handed to mpv as one IPC argument. */
  target: string;
  title: string;
  /** Headers mpv must send (unproxied sources that need them). */
  headers?: Record<string, string>;
}

type Listener<T> = (value: T) => void;

export class MpvPlayer {
  mediaId: string | null = null;
  private timePos = 0;
  private timePosAt = 0;
  private isPaused = true;
  private speed = 1;
  private isSeeking = false;
  private stalled = false;
  private length: number | undefined;
  private eof = false;
  /** The file is open and its first frame shown (the engine's `hasMetadata`). */
  private ready = false;
  /** mpv said `file-loaded` for the item we asked for. */
  private opened = false;
  /** The playlist entry of our last loadfile, and the one mpv is starting: a late event of an earlier file is not this item's. */
  private expectedEntry: number | null = null;
  private startedEntry: number | null = null;
  private ranges: Array<[number, number]> | undefined;
  /** Pause changes we asked for and mpv has not reported yet (each for OURS_MS at most); our last request; what mpv last reported. */
  private ourPauses: Array<{ value: boolean; at: number }> = [];
  private lastPauseRequest = true;
  private observedPause = true;
  /** When our latest seek command went out, while mpv has not said `seek` for it (mpv folds seeks queued together into one). */
  private ourSeekAt: number | null = null;
  /** A seek of the person's is in flight: reported when it lands. */
  private userSeek = false;
  private readonly frames = new Set<Listener<MpvFrame>>();
  private readonly wakes = new Set<Listener<void>>();
  private readonly ends = new Set<Listener<void>>();
  private readonly userPauses = new Set<Listener<{ paused: boolean; position: number }>>();
  private readonly userSeeks = new Set<Listener<number>>();
  private readonly loadErrors = new Set<Listener<string>>();
  private readonly stops: Array<() => void> = [];

  constructor(private readonly ipc: MpvIpc) {
    this.stops.push(
      ipc.observe('time-pos', (value) => this.onTimePos(value)),
      ipc.observe('pause', (value) => this.onPause(value === true)),
      ipc.observe('speed', (value) => {
        if (typeof value === 'number') this.speed = value;
      }),
      ipc.observe('seeking', (value) => {
        this.isSeeking = value === true;
      }),
      ipc.observe('paused-for-cache', (value) => {
        this.stalled = value === true;
      }),
      ipc.observe('duration', (value) => {
        this.length = typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
      }),
      ipc.observe('eof-reached', (value) => this.onEof(value === true)),
      ipc.observe('demuxer-cache-state', (value) => this.onCache(value)),
      ipc.onEvent((event) => this.onEvent(event)),
    );
  }

  /** Seconds into the media now: the last frame's time, moved on by the time since while playing. */
  get currentTime(): number {
    if (this.isPaused || this.isSeeking || !this.ready) return this.timePos;
    return this.timePos + ((localNow() - this.timePosAt) / 1000) * this.speed;
  }

  get paused(): boolean {
    return this.isPaused;
  }

  get playbackRate(): number {
    return this.speed;
  }

  get seeking(): boolean {
    return this.isSeeking;
  }

  get buffering(): boolean {
    return this.stalled;
  }

  get hasMetadata(): boolean {
    return this.ready;
  }

  get duration(): number | undefined {
    return this.length;
  }

  get ended(): boolean {
    return this.eof;
  }

  get buffered(): Array<[number, number]> | undefined {
    return this.ranges;
  }

  /** A seek of the person's has begun and not been reported yet: the engine must not undo it meanwhile. */
  get userActing(): boolean {
    return this.userSeek;
  }

  play(): void {
    this.setPause(false);
  }

  pause(): void {
    this.setPause(true);
  }

  seek(position: number): void {
    this.ourSeekAt = localNow();
    this.isSeeking = true;
    this.ipc.fire(['seek', position, 'absolute+exact']);
  }

  setRate(rate: number): void {
    this.speed = rate;
    this.ipc.fire(['set_property', 'speed', rate]);
  }

  /** Opens an item, paused (the engine starts it when the room is there). */
  async load(request: LoadRequest): Promise<void> {
    this.mediaId = request.mediaId;
    this.resetMedia();
    this.setPause(true);
    const headers = Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`);
    await this.ipc.command(['set_property', 'http-header-fields', headers]);
    await this.ipc.command(['set_property', 'force-media-title', request.title]);
    this.expectedEntry = null;
    const answer = (await this.ipc.command(['loadfile', request.target, 'replace'])) as { playlist_entry_id?: number } | null;
    this.expectedEntry = answer?.playlist_entry_id ?? null;
  }

  /** Nothing to play: mpv goes idle (its window stays, with the OSD's words). */
  unload(): void {
    this.mediaId = null;
    this.resetMedia();
    this.ipc.fire(['stop']);
  }

  /** Words on mpv's picture for `ms` (the OSD). */
  say(text: string, ms = 4000): void {
    this.ipc.fire(['show-text', text, ms]);
  }

  onFrame(listener: Listener<MpvFrame>): () => void {
    return add(this.frames, listener);
  }

  /** A wait ended (the file opened, a seek landed): the engine may act at once. */
  onWake(listener: Listener<void>): () => void {
    return add(this.wakes, listener);
  }

  onEnded(listener: Listener<void>): () => void {
    return add(this.ends, listener);
  }

  onUserPause(listener: Listener<{ paused: boolean; position: number }>): () => void {
    return add(this.userPauses, listener);
  }

  onUserSeek(listener: Listener<number>): () => void {
    return add(this.userSeeks, listener);
  }

  /** mpv could not open the item (its reason). */
  onLoadError(listener: Listener<string>): () => void {
    return add(this.loadErrors, listener);
  }

  close(): void {
    for (const stop of this.stops) stop();
  }

  private setPause(paused: boolean): void {
    const now = localNow();
    // Only a change mpv will report is waited for: setting what it already has reports nothing.
    if (paused !== this.observedPause || this.ourPauses.length > 0) this.ourPauses.push({ value: paused, at: now });
    this.lastPauseRequest = paused;
    this.isPaused = paused;
    this.ipc.fire(['set_property', 'pause', paused]);
  }

  private resetMedia(): void {
    this.ready = false;
    this.opened = false;
    this.eof = false;
    this.length = undefined;
    this.ranges = undefined;
    this.userSeek = false;
    this.timePos = 0;
  }

  private onTimePos(value: unknown): void {
    if (typeof value !== 'number') return;
    this.timePos = value;
    this.timePosAt = localNow();
    if (!this.ready || this.isPaused || this.isSeeking) return;
    for (const listener of this.frames) listener({ mediaTime: value, at: this.timePosAt });
  }

  private onPause(paused: boolean): void {
    const now = localNow();
    this.ourPauses = this.ourPauses.filter((entry) => now - entry.at < OURS_MS);
    const ours = this.ourPauses.findIndex((entry) => entry.value === paused);
    const wasPaused = this.isPaused;
    this.isPaused = paused;
    this.observedPause = paused;
    if (ours >= 0) {
      // mpv may fold quick changes of ours into fewer reports: once it reports what we asked
      // last, nothing earlier is still to come.
      if (paused === this.lastPauseRequest) this.ourPauses = [];
      else this.ourPauses.splice(0, ours + 1);
      return;
    }
    if (paused === wasPaused || !this.ready || this.mediaId === null) return;
    // keep-open holds the last frame paused at the end: that is the item ending, not a person.
    if (paused && (this.eof || (this.length !== undefined && this.timePos >= this.length - END_MARGIN_S))) return;
    for (const listener of this.userPauses) listener({ paused, position: this.timePos });
  }

  private onEof(eof: boolean): void {
    const was = this.eof;
    this.eof = eof;
    if (eof && !was && this.ready) for (const listener of this.ends) listener();
  }

  private onCache(value: unknown): void {
    const ranges = (value as { 'seekable-ranges'?: Array<{ start?: unknown; end?: unknown }> } | null)?.['seekable-ranges'];
    if (!Array.isArray(ranges)) return;
    this.ranges = ranges.filter((range) => typeof range.start === 'number' && typeof range.end === 'number').map((range) => [range.start as number, range.end as number]);
  }

  private onEvent(event: MpvEvent): void {
    switch (event.event) {
      case 'seek': {
        // Ours when one of our seeks is outstanding (one that made no event is forgotten after
        // a moment); while opening a file mpv seeks by itself.
        const ours = this.ourSeekAt !== null && localNow() - this.ourSeekAt < OURS_MS;
        this.ourSeekAt = null;
        if (!ours && this.ready && this.mediaId !== null) this.userSeek = true;
        break;
      }
      case 'playback-restart':
        if (!this.ready && this.opened && this.mediaId !== null) this.ready = true;
        this.isSeeking = false;
        if (this.userSeek) void this.reportUserSeek();
        this.wake();
        break;
      case 'start-file':
        this.startedEntry = event.playlist_entry_id ?? null;
        break;
      case 'file-loaded':
        this.opened = this.mediaId !== null && (this.expectedEntry === null || this.startedEntry === this.expectedEntry);
        this.wake();
        break;
      case 'end-file':
        if (event.reason === 'error' && this.mediaId !== null) {
          this.mediaId = null;
          for (const listener of this.loadErrors) listener('mpv could not open the item');
        }
        break;
    }
  }

  /** Where the person's seek landed: mpv's own answer (the time-pos event may come after playback-restart). */
  private async reportUserSeek(): Promise<void> {
    const position = await this.ipc.command(['get_property', 'time-pos']).catch(() => this.timePos);
    this.userSeek = false;
    if (typeof position === 'number') {
      this.timePos = position;
      this.timePosAt = localNow();
      for (const listener of this.userSeeks) listener(position);
    }
  }

  private wake(): void {
    for (const listener of this.wakes) listener();
  }
}

function add<T>(set: Set<T>, listener: T): () => void {
  set.add(listener);
  return () => set.delete(listener);
}
